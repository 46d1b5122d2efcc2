// Turns what the visitors found into the usage file: calls grouped by operation, each with the statuses told
// apart on its own answers; each field read given to the operations or events whose answers flow to it (origins.ts),
// or, where that flow cannot be followed, to every called operation and handled event whose answer can hold it,
// or else listed apart.
import type { ts as TS } from 'ts-morph';
import type { CallFound, Context, ReadFound } from './context.js';
import { resolveGenericReads } from './generic-reads.js';
import { type Origin, type Origins, originTracer } from './origins.js';
import { childPointer } from './pointers.js';
import { errorSchemaPointers, holds, payloadPointers, responsePointers } from './reachable.js';
import type { EventUse, FieldUse, OperationUse, UsageFile } from './usage-file.js';
import { USAGE_FORMAT_VERSION } from './usage-file.js';

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

/** The statuses each call tells apart: those compared on its own answers, else those compared where it is made. */
function statusesByCall(ctx: Context, origins: (node: TS.Node) => Origins): Map<CallFound, string[]> {
  const byCall = new Map<CallFound, string[]>();
  const add = (call: CallFound, status: string) => byCall.set(call, [...(byCall.get(call) ?? []), status]);
  for (const status of ctx.statuses) {
    const calls = [...(origins(status.holder) ?? [])].filter((o): o is CallFound => 'operationId' in o);
    if (calls.length) for (const call of calls) add(call, status.status);
    else for (const call of ctx.calls.filter((c) => c.scope === status.scope)) add(call, status.status);
  }
  return byCall;
}

function operationsOf(ctx: Context, statuses: Map<CallFound, string[]>): OperationUse[] {
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
    use.statuses.push(...(statuses.get(call) ?? []));
    byOperation.set(key, use);
  }
  for (const use of byOperation.values()) use.requestFields = mergeFieldUses(use.requestFields);
  return [...byOperation.values()];
}

const mergeFieldUses = (fields: FieldUse[]) =>
  mergeReads(
    fields.flatMap((f) => f.sites.map((site) => ({ pointer: f.pointer, site, whole: Boolean(f.whole) }) as ReadFound)),
  );

type EventFound = EventUse & { reads: ReadFound[] };

function eventsOf(ctx: Context): Map<string, EventFound> {
  const events = new Map<string, EventFound>();
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
  return events;
}

/** Where each read goes: the uses its answers flow from, or every use whose answer can hold it. */
class ReadPlacer {
  private readonly reachable = new Map<OperationUse, Set<string>>();
  private readonly payloads = new Map<EventFound, Set<string>>();
  readonly other: ReadFound[] = [];

  constructor(
    private readonly ctx: Context,
    private readonly operations: Map<string, OperationUse>,
    private readonly events: Map<string, EventFound>,
    private readonly origins: (node: TS.Node) => Origins,
  ) {
    for (const op of operations.values())
      this.reachable.set(
        op,
        responsePointers(ctx.families.get(op.family)!, childPointer('', 'paths', op.path, op.method)),
      );
    for (const event of events.values())
      this.payloads.set(event, payloadPointers(ctx.families.get(event.family)!, event.event));
  }

  place(read: ReadFound): void {
    const handler = this.ctx.handlers.find((h) => within(read.node, h.handler));
    if (handler) {
      this.events.get(`${handler.family} ${handler.event}`)!.reads.push(read);
      return;
    }
    if (this.placeByOrigin(read)) return;
    const holders = [...this.operations.values()].filter((op) => this.opHolds(op, read));
    const payloads = [...this.events.values()].filter((e) => this.eventHolds(e, read));
    for (const op of holders) op.responseFields.push(...mergeReads([read]));
    for (const event of payloads) event.reads.push(read);
    if (!holders.length && !payloads.length) this.other.push(read);
  }

  private opHolds = (op: OperationUse, read: ReadFound) =>
    op.family === read.family && holds(this.reachable.get(op)!, read.pointer);
  private eventHolds = (event: EventFound, read: ReadFound) =>
    event.family === read.family && holds(this.payloads.get(event)!, read.pointer);

  /** Gives the read to the uses its value comes from, when the flow is known and one of them can hold it. */
  private placeByOrigin(read: ReadFound): boolean {
    const origins = [...(this.origins(read.from) ?? [])];
    let placed = false;
    for (const origin of origins) {
      const use = this.useOf(origin);
      if (use && 'operationId' in use && this.opHolds(use, read)) use.responseFields.push(...mergeReads([read]));
      else if (use && 'event' in use && this.eventHolds(use, read)) use.reads.push(read);
      else continue;
      placed = true;
    }
    return placed;
  }

  private useOf(origin: Origin): OperationUse | EventFound | undefined {
    return 'operationId' in origin
      ? this.operations.get(`${origin.family} ${origin.operationId}`)
      : this.events.get(`${origin.family} ${origin.event}`);
  }
}

/**
 * `e.body` of an ApiError, typed `unknown`: the error answers of the calls `e` comes from (or, when that is not
 * known, of every call) are used whole.
 */
function readErrorBodies(ctx: Context, origins: (node: TS.Node) => Origins): void {
  for (const body of ctx.errorBodies) {
    const from = [...(origins(body.from) ?? [])].filter((o): o is CallFound => 'operationId' in o);
    for (const call of from.length ? from : ctx.calls) {
      const bundle = ctx.families.get(call.family);
      const pointer = bundle?.pointers.get(call.operationId);
      if (!bundle || !pointer) continue;
      for (const schema of errorSchemaPointers(bundle, pointer))
        ctx.reads.push({
          family: call.family,
          pointer: schema,
          site: body.site,
          whole: true,
          node: body.node,
          from: call.node,
        });
    }
  }
}

export function assembleUsage(ctx: Context, consumer: string): UsageFile {
  resolveGenericReads(ctx);
  const origins = originTracer(ctx);
  readErrorBodies(ctx, origins);
  const operations = operationsOf(ctx, statusesByCall(ctx, origins));
  const events = eventsOf(ctx);
  const byKey = new Map(operations.map((op) => [`${op.family} ${op.operationId}`, op]));
  const placer = new ReadPlacer(ctx, byKey, events, origins);
  for (const read of ctx.reads) placer.place(read);
  const other = placer.other;
  for (const op of operations) op.responseFields = mergeFieldUses(op.responseFields);
  const families = new Set([...operations, ...events.values(), ...other].map((u) => u.family));
  return {
    formatVersion: USAGE_FORMAT_VERSION,
    consumer,
    descriptions: Object.fromEntries([...families].map((f) => [f, ctx.families.get(f)!.digest!])),
    operations,
    events: [...events.values()].map(({ reads, ...use }) => ({ ...use, payloadFields: mergeReads(reads) })),
    otherFields: [...new Set(other.map((r) => r.family))].flatMap((family) =>
      mergeReads(other.filter((r) => r.family === family)).map((f) => ({ family, ...f })),
    ),
  };
}
