// What no known consumer uses, by the usage files: operations never called, events never handled, and response
// or payload fields never read (the candidates for deprecation).
import type { FamilyBundle } from './bundles.js';
import { isWithin } from './pointers.js';
import { payloadPointers, responsePointers } from './reachable.js';
import type { FieldUse, UsageFile } from './usage-file.js';

export interface Unused {
  operations: string[];
  events: string[];
  /** Pointers of declared fields (`.../properties/<name>`) no consumer reads. */
  fields: string[];
}

const isField = (pointer: string) => /\/properties\/[^/]+$/.test(pointer);

/** Whether the field at `pointer` is read: it, something under it, or a whole value over it. */
const isRead = (pointer: string, reads: FieldUse[]) =>
  reads.some((read) => isWithin(read.pointer, pointer) || (read.whole && isWithin(pointer, read.pointer)));

export function unusedIn(bundle: FamilyBundle, usages: UsageFile[]): Unused {
  const { family } = bundle;
  const operations = usages.flatMap((u) => u.operations.filter((o) => o.family === family));
  const events = usages.flatMap((u) => u.events.filter((e) => e.family === family));
  const reads = [
    ...operations.flatMap((o) => o.responseFields),
    ...events.flatMap((e) => e.payloadFields),
    ...usages.flatMap((u) => u.otherFields.filter((f) => f.family === family)),
  ];
  const called = new Set(operations.map((o) => `${o.method} ${o.path}`));
  const handled = new Set(events.map((e) => e.event));
  const fields = new Set<string>();
  for (const entry of bundle.operations) {
    if (!bundle.pointers.has(entry.operationId)) continue;
    for (const pointer of responsePointers(bundle, bundle.pointers.get(entry.operationId)!)) fields.add(pointer);
  }
  for (const event of Object.keys(bundle.doc.webhooks ?? {}))
    for (const pointer of payloadPointers(bundle, event)) fields.add(pointer);
  return {
    operations: bundle.operations
      .filter((e) => !called.has(`${e.method} ${e.path}`))
      .map((e) => `${e.method.toUpperCase()} ${e.path} (${e.operationId})`),
    events: Object.keys(bundle.doc.webhooks ?? {}).filter((event) => !handled.has(event)),
    fields: [...fields].filter((p) => isField(p) && !isRead(p, reads)).sort(),
  };
}
