// Turns what the visitors found into the usage file: calls grouped by operation, with the statuses told apart
// in the functions that make them; each field read given to the handled event whose handler reads it, or to
// the called operations whose responses hold it, or else listed apart.
import type { Context, ReadFound } from './context.js';
import type { EventUse, FieldUse, OperationUse, UsageFile } from './format.js';
import { USAGE_FORMAT_VERSION } from './format.js';
import { holds, payloadPointers, responsePointers } from './reachable.js';

/** Field reads merged by pointer: their sites, and `whole` if any of them uses the whole value. */
function mergeReads(reads: ReadFound[]): FieldUse[] {
  const byPointer = new Map<string, FieldUse>();
  for (const read of reads) {
    const field = byPointer.get(read.pointer) ?? { pointer: read.pointer, sites: [] };
    field.sites.push(read.site);
    if (read.whole) field.whole = true;
    byPointer.set(read.pointer, field);
  }
  return [...byPointer.values()];
}

const within = (node: { pos: number; end: number; getSourceFile(): unknown }, outer: typeof node) =>
  node.getSourceFile() === outer.getSourceFile() && node.pos >= outer.pos && node.end <= outer.end;

function operationsOf(ctx: Context): OperationUse[] {
  const byOperation = new Map<string, OperationUse>();
  for (const call of ctx.calls) {
    const bundle = ctx.families.get(call.family);
    const entry = bundle?.operations.find((e) => e.operationId === call.operationId);
    if (!entry) continue;
    const key = `${call.family} ${call.operationId}`;
    const use = byOperation.get(key) ?? {
      family: call.family,
      operationId: call.operationId,
      method: entry.method,
      path: entry.path,
      calls: [],
      parameters: [],
      requestFields: [],
      responseFields: [],
      statuses: [],
    };
    use.calls.push(call.site);
    use.parameters.push(...call.parameters);
    use.requestFields.push(
      ...mergeReads(call.requestFields.map((f) => ({ ...f, family: call.family, whole: false }) as ReadFound)),
    );
    if (call.dynamic.length)
      use.requestDynamic = [...(use.requestDynamic ?? []), ...call.dynamic.map((d) => ({ site: call.site, ...d }))];
    use.statuses.push(...ctx.statuses.filter((s) => s.scope === call.scope).map((s) => s.status));
    byOperation.set(key, use);
  }
  for (const use of byOperation.values()) use.requestFields = mergeFieldUses(use.requestFields);
  return [...byOperation.values()];
}

const mergeFieldUses = (fields: FieldUse[]) =>
  mergeReads(
    fields.flatMap((f) => f.sites.map((site) => ({ pointer: f.pointer, site, whole: Boolean(f.whole) }) as ReadFound)),
  );

export function assembleUsage(ctx: Context, consumer: string): UsageFile {
  const operations = operationsOf(ctx);
  const events = new Map<string, EventUse & { reads: ReadFound[] }>();
  for (const handler of ctx.handlers) {
    const key = `${handler.family} ${handler.event}`;
    const use = events.get(key) ?? {
      family: handler.family,
      event: handler.event,
      handlers: [],
      payloadFields: [],
      reads: [],
    };
    use.handlers.push(handler.site);
    events.set(key, use);
  }
  const reachable = new Map(
    operations.map((op) => [
      op,
      responsePointers(
        ctx.families.get(op.family)!,
        `/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}`,
      ),
    ]),
  );
  const other: ReadFound[] = [];
  for (const read of ctx.reads) {
    const handler = ctx.handlers.find((h) => within(read.node, h.handler));
    if (handler) {
      events.get(`${handler.family} ${handler.event}`)!.reads.push(read);
      continue;
    }
    const holders = operations.filter((op) => op.family === read.family && holds(reachable.get(op)!, read.pointer));
    const payloads = [...events.values()].filter(
      (e) => e.family === read.family && holds(payloadPointers(ctx.families.get(e.family)!, e.event), read.pointer),
    );
    for (const op of holders) op.responseFields.push(...mergeReads([read]));
    for (const event of payloads) event.reads.push(read);
    if (!holders.length && !payloads.length) other.push(read);
  }
  for (const op of operations) op.responseFields = mergeFieldUses(op.responseFields);
  const families = new Set([...operations, ...events.values(), ...other].map((u) => u.family));
  return {
    formatVersion: USAGE_FORMAT_VERSION,
    consumer,
    descriptions: Object.fromEntries([...families].map((f) => [f, ctx.families.get(f)!.doc.info.version])),
    operations,
    events: [...events.values()].map(({ reads, ...use }) => ({ ...use, payloadFields: mergeReads(reads) })),
    otherFields: [...new Set(other.map((r) => r.family))].flatMap((family) =>
      mergeReads(other.filter((r) => r.family === family)).map((f) => ({ family, ...f })),
    ),
  };
}
