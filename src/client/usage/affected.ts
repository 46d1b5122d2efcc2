// Whom a change breaks: the consumers whose usage files show a use of what changed, with the sites of that
// use, as the rule that found the change says (its `breaks`: every caller, the senders of what changed, or its
// readers). A use is seen (the change breaks the consumer) or assumed (a request body built at run time may send
// what changed: the change may break it), as Apollo's checks tell a "broken" client from a "potentially affected"
// one. The same matching serves the provider's gate and a consumer's `ramp-api usage --check`.

import type { Change, SchemaSpot } from './change.js';
import { isWithin } from './pointers.js';
import { ruleById } from './rules/index.js';
import type { Breaks } from './rules/rule.js';
import type { DynamicBody, FieldUse, OperationUse, UsageFile } from './usage-file.js';
import { sortSites } from './usage-file.js';

export interface Affected {
  consumer: string;
  /** Where the consumer was seen to use what changed. */
  sites: string[];
  /** Where it may use it: calls whose body is built at run time, each with its reason. */
  assumed: { site: string; reason: string }[];
}

/** The uses of one consumer a change affects: seen, and assumed. */
interface Uses {
  sites: string[];
  assumed: DynamicBody[];
}

const seenOnly = (sites: string[]): Uses => ({ sites, assumed: [] });

/** Whether a change at `spot` is at or under the part of a body the extractor did not follow. */
const underDynamic = (entry: DynamicBody, spot: SchemaSpot | undefined) =>
  !entry.pointer || !spot || [...spot.trail, spot.pointer].some((pointer) => isWithin(pointer, entry.pointer!));

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

/** The uses in one consumer's calls of an operation that a change breaking its callers or senders affects. */
function operationUses(change: Change, breaks: Breaks, op: OperationUse): Uses {
  const { part, spot, parameter } = change.location!;
  if (breaks === 'callers') return seenOnly(op.calls);
  if (breaks !== 'senders') return seenOnly([]);
  if (part === 'parameter') return seenOnly(op.parameters.includes(parameter!) ? op.calls : []);
  return {
    sites: readSites(op.requestFields, spot!),
    assumed: (op.requestDynamic ?? []).filter((entry) => underDynamic(entry, spot)),
  };
}

/** The uses of one consumer that a change affects. */
function usesIn(change: Change, family: string, usage: UsageFile): Uses {
  const location = change.location;
  const breaks = ruleById(change.rule)?.breaks ?? 'nobody';
  if (!location || breaks === 'nobody') return seenOnly([]);
  const spot = location.spot;
  const sameFamily = <T extends { family: string }>(uses: T[]) => uses.filter((u) => u.family === family);
  if (location.event) {
    const event = sameFamily(usage.events).find((e) => e.event === location.event);
    if (!event) return seenOnly([]);
    return seenOnly(breaks === 'readers' ? readSites(event.payloadFields, spot!) : event.handlers);
  }
  const wanted = location.operation!;
  const op = sameFamily(usage.operations).find((o) => o.method === wanted.method && o.path === wanted.path);
  const uses = op ? operationUses(change, breaks, op) : seenOnly([]);
  if (breaks === 'readers') {
    // The operation's own reads, and those the usage file could not give to any called operation.
    const reads = [...(op?.responseFields ?? []), ...sameFamily(usage.otherFields)];
    return { ...uses, sites: [...uses.sites, ...readSites(reads, spot!)] };
  }
  return uses;
}

/** Each assumed use once, in site order. */
function sortAssumed(assumed: DynamicBody[]): Affected['assumed'] {
  const unique = [...new Map(assumed.map(({ site, reason }) => [`${site} ${reason}`, { site, reason }])).values()];
  const order = sortSites(unique.map((a) => a.site));
  return unique.sort((a, b) => order.indexOf(a.site) - order.indexOf(b.site) || (a.reason < b.reason ? -1 : 1));
}

const byConsumer = (a: Affected, b: Affected) => (a.consumer < b.consumer ? -1 : a.consumer > b.consumer ? 1 : 0);

/** The consumers a change affects, each with the sites of its use, seen and assumed, by consumer name. */
export function affectedBy(change: Change, family: string, usages: UsageFile[]): Affected[] {
  return usages
    .map((usage) => {
      const { sites, assumed } = usesIn(change, family, usage);
      return { consumer: usage.consumer, sites: sortSites(sites), assumed: sortAssumed(assumed) };
    })
    .filter((a) => a.sites.length > 0 || a.assumed.length > 0)
    .sort(byConsumer);
}

/** Whether a consumer was seen to use what changed (the change breaks it), not only assumed to. */
export const seen = (affected: Affected) => affected.sites.length > 0;

/**
 * `breaks payout-service (src/payout.ts:12); may break kyc-onboarding (src/register.ts:16: the body is built at
 * run time (a computed key at src/register.ts:15))`, or that no known consumer uses it.
 */
export function describeAffected(affected: Affected[]): string {
  if (!affected.length) return 'no known consumer';
  const broken = affected.filter(seen).map((a) => `${a.consumer} (${a.sites.join(', ')})`);
  const maybe = affected
    .filter((a) => !seen(a))
    .map((a) => `${a.consumer} (${a.assumed.map(({ site, reason }) => `${site}: ${reason}`).join('; ')})`);
  return [broken.length ? `breaks ${broken.join('; ')}` : '', maybe.length ? `may break ${maybe.join('; ')}` : '']
    .filter(Boolean)
    .join('; ');
}
