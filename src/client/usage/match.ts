// Whom a change breaks: the consumers whose usage files show a use of what changed, with the sites of that
// use; and what no known consumer uses at all. The same rules serve the provider's gate and a consumer's
// `ramp-api usage --check`.
import type { FieldUse, OperationUse, UsageFile } from './format.js';
import { sortSites } from './format.js';
import { isWithin } from './pointers.js';
import type { Change } from './rules.js';
import type { SchemaSpot } from './rules-schema.js';

export interface Affected {
  consumer: string;
  sites: string[];
}

/** The sites of the reads a change at `spot` affects: at or under the changed node, or a whole value over it. */
function readSites(fields: FieldUse[], spot: SchemaSpot): string[] {
  const own = [spot.pointer, spot.trail.at(-1) ?? spot.pointer];
  return fields
    .filter(
      (f) =>
        own.some((pointer) => isWithin(f.pointer, pointer)) ||
        (f.whole && [...spot.trail, spot.pointer].some((pointer) => isWithin(pointer, f.pointer))),
    )
    .flatMap((f) => f.sites);
}

/** The sites in one consumer's calls of an operation that a request-side or operation-wide change affects. */
function operationSites(change: Change, op: OperationUse): string[] {
  const { part, spot, parameter } = change.location!;
  if (part === 'operation' || (part === 'request' && (!spot || spot.absent))) return op.calls;
  if (part === 'parameter') return op.parameters.includes(parameter!) ? op.calls : [];
  if (part === 'request') return [...readSites(op.requestFields, spot!), ...(op.requestDynamic ?? [])];
  return spot ? [] : op.calls; // a response's media type: every call
}

/** The sites of one consumer that a change affects. */
function sitesIn(change: Change, family: string, usage: UsageFile): string[] {
  const location = change.location;
  if (!location) return [];
  const spot = location.spot;
  const sameFamily = <T extends { family: string }>(uses: T[]) => uses.filter((u) => u.family === family);
  if (location.event) {
    const event = sameFamily(usage.events).find((e) => e.event === location.event);
    if (!event) return [];
    return spot ? readSites(event.payloadFields, spot) : event.handlers;
  }
  const wanted = location.operation!;
  const op = sameFamily(usage.operations).find((o) => o.method === wanted.method && o.path === wanted.path);
  const sites = op ? operationSites(change, op) : [];
  if (location.part === 'response' && spot) {
    // The operation's own reads, and those the usage file could not give to any called operation.
    const reads = [...(op?.responseFields ?? []), ...sameFamily(usage.otherFields)];
    return [...sites, ...readSites(reads, spot)];
  }
  return sites;
}

/** The consumers a change affects, each with the sites of its use, by consumer name. */
export function affectedBy(change: Change, family: string, usages: UsageFile[]): Affected[] {
  return usages
    .map((usage) => ({ consumer: usage.consumer, sites: sortSites(sitesIn(change, family, usage)) }))
    .filter((a) => a.sites.length > 0)
    .sort((a, b) => (a.consumer < b.consumer ? -1 : a.consumer > b.consumer ? 1 : 0));
}

/** `payout-service (src/payout.ts:12, src/payout.ts:14)`, or that no known consumer uses it. */
export function describeAffected(affected: Affected[]): string {
  if (!affected.length) return 'no known consumer';
  return `breaks ${affected.map((a) => `${a.consumer} (${a.sites.join(', ')})`).join('; ')}`;
}
