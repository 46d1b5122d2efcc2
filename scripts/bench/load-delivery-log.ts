// The delivery log of `npm run sandbox:load` against the receivers' own logs: each call an endpoint received matched
// to a logged attempt, healthy endpoints reached once, failing ones on the whole schedule.
import { performance } from 'node:perf_hooks';
import { deliverySchedule } from '../../src/client/webhooks/index.js';
import type { ReceiverBehaviour as Behaviour, EventReceiver as Receiver } from '../../src/testing/event-receiver.js';
import { type Check, type Evidence, noProblems } from './load-evidence.js';

/**
 * Sandbox time to this process's performance.now(): the offset in force is the one whose window (between the
 * drain's clock moves, a second allowed either side) holds the time; each move jumps it by far more than that.
 */
const SLACK_MS = 1_000;

/** An attempt of the delivery log, its start and end in this process's performance.now(). */
interface Logged {
  claim: number;
  attempt: number;
  outcome: string;
  abandoned: boolean;
  from: number;
  to: number;
  matched: boolean;
}

export interface AttemptRow {
  delivery_id: string;
  claim: number;
  attempt: number;
  started_at: Date;
  finished_at: Date;
  outcome: string;
  abandoned: boolean;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  status: string;
}

/** The delivery log by delivery, its times moved to this process's clock. */
export function loggedAttempts(attemptRows: AttemptRow[], clock: Evidence['clock']): Map<string, Logged[]> {
  const epochs = [{ from: -Infinity, to: clock.moves[0]?.answeredAt ?? Infinity, offsetMs: clock.offsetMs }];
  for (const [i, move] of clock.moves.entries())
    epochs.push({ from: move.sentAt, to: clock.moves[i + 1]?.answeredAt ?? Infinity, offsetMs: move.offsetMs });
  const localOffset = (sandboxMs: number) => {
    const fits = epochs.filter((e) => {
      const t = sandboxMs - e.offsetMs - performance.timeOrigin;
      return t >= e.from - SLACK_MS && t <= e.to + SLACK_MS;
    });
    return (fits.at(-1) ?? epochs[0]!).offsetMs + performance.timeOrigin;
  };
  const logged = new Map<string, Logged[]>();
  for (const a of attemptRows) {
    const started = new Date(a.started_at).getTime();
    const shift = localOffset(started);
    const row = {
      claim: a.claim,
      attempt: a.attempt,
      outcome: a.outcome,
      abandoned: a.abandoned,
      from: started - shift,
      to: new Date(a.finished_at).getTime() - shift,
      matched: false,
    };
    logged.set(a.delivery_id, [...(logged.get(a.delivery_id) ?? []), row]);
  }

  return logged;
}

/**
 * Matches each call a receiver logged to a logged attempt; the check, how many calls each delivery's endpoint
 * received, and which receiver a URL is.
 */
export function logCheck(
  receivers: Record<Behaviour, Receiver>,
  deliveries: DeliveryRow[],
  logged: Map<string, Logged[]>,
  killedAtMs: number,
): { check: Check; seenOf: Map<string, number>; receiverOf: (url: string) => Behaviour | null } {
  // Each call a receiver logged, matched one by one to a logged attempt of its delivery (same URL and event id)
  // that was under way when the call arrived: taken in order of arrival, each call takes the attempt that ends
  // first among those it fits. A call nothing matches is a call the log lost.
  const receiverOf = (url: string): Behaviour | null =>
    (Object.entries(receivers) as [Behaviour, Receiver][]).find(([, r]) => url.startsWith(`${r.url}/`))?.[0] ?? null;
  const byKey = new Map(deliveries.map((d) => [`${d.url}|${d.event_id}`, d]));
  const seenOf = new Map<string, number>();
  const log = { calls: 0, matched: 0, unmatched: [] as string[] };
  for (const receiver of Object.values(receivers))
    for (const [key, times] of receiver.calls) {
      const d = byKey.get(key);
      const rows = d ? (logged.get(d.id) ?? []) : [];
      if (d) seenOf.set(d.id, times.length);
      for (const t of [...times].sort((x, y) => x - y)) {
        log.calls++;
        const fitting = rows.filter((r) => !r.matched && r.from - SLACK_MS <= t && t <= r.to + SLACK_MS);
        const match = fitting.sort((x, y) => x.to - y.to)[0];
        if (match) {
          match.matched = true;
          log.matched++;
        } else
          log.unmatched.push(
            `${d ? `delivery ${d.id}` : 'no delivery'}: a call to ${key} at ${(t / 1000).toFixed(1)} s is not in its log (${rows.length} attempts logged)`,
          );
      }
    }
  // A logged attempt no call matches: only a timeout may be one (a claim the killed instance never recorded,
  // which may have died before calling; a call aborted before it arrived). An abandoned claim is the killed
  // instance's, made before the kill.
  const all = [...logged.entries()].flatMap(([id, rows]) => rows.map((r) => ({ id, ...r })));
  const abandoned = all.filter((r) => r.abandoned);
  const unreached = all.filter((r) => !r.matched);
  const loggedProblems = [
    ...unreached
      .filter((r) => r.outcome !== 'timeout')
      .map((r) => `delivery ${r.id}: claim ${r.claim} (attempt ${r.attempt}, ${r.outcome}) is logged, no call arrived`),
    ...abandoned
      .filter((r) => r.from > killedAtMs + SLACK_MS)
      .map((r) => `delivery ${r.id}: claim ${r.claim} was abandoned, yet started after the kill`),
  ];
  const check = noProblems(
    'every call an endpoint received is in the delivery log (matched one by one to a logged attempt)',
    `${log.calls} calls received, ${all.length} attempts logged, ${log.matched} matched; ${log.unmatched.length} calls not in the log; ${abandoned.length} claims of the killed instance logged as timeouts (${abandoned.filter((r) => r.matched).length} had reached the endpoint); ${unreached.length} logged attempts no call matches (${unreached.filter((r) => r.outcome === 'timeout').length} timeouts)`,
    [...log.unmatched, ...loggedProblems],
  );
  return { check, seenOf, receiverOf };
}

/** Healthy endpoints reached once, failing ones on the whole schedule. */
export function endpointChecks(
  deliveries: DeliveryRow[],
  logged: Map<string, Logged[]>,
  seenOf: Map<string, number>,
  receiverOf: (url: string) => Behaviour | null,
): Check[] {
  const healthy = { deliveries: 0, once: 0, repeated: 0, problems: [] as string[] };
  const failing = { deliveries: 0, calls: 0, abandoned: 0, problems: [] as string[] };
  const scheduled = deliverySchedule().calls;
  for (const d of deliveries) {
    const behaviour = receiverOf(d.url);
    if (!behaviour) continue;
    const seen = seenOf.get(d.id) ?? 0;
    const rows = logged.get(d.id) ?? [];
    if (behaviour === 'healthy') {
      healthy.deliveries++;
      // Once; more only where the log shows the call made more than once (in flight at the kill or when its
      // lease ran out).
      if (d.status !== 'delivered') healthy.problems.push(`${d.id} is ${d.status}`);
      else if (seen === 1) healthy.once++;
      else if (seen > 1 && seen <= rows.length) healthy.repeated += seen - 1;
      else healthy.problems.push(`event ${d.event_id} reached ${d.url} ${seen} times, ${rows.length} calls logged`);
    } else {
      failing.deliveries++;
      failing.calls += seen;
      // Every scheduled attempt is logged once, in order: recorded (and then it reached the endpoint), or a claim
      // of the killed instance logged as a timeout, which used up its attempt. The endpoint never got more.
      const logged = rows.map((r) => r.attempt).sort((x, y) => x - y);
      if (d.status !== 'failed' || logged.join() !== Array.from({ length: scheduled }, (_, i) => i + 1).join())
        failing.problems.push(
          `${d.id} is ${d.status} with attempts ${logged.join(', ') || 'none'} of ${scheduled} logged`,
        );
      else if (rows.some((r) => !r.abandoned && !r.matched) || seen > scheduled)
        failing.problems.push(
          `event ${d.event_id} reached ${d.url} ${seen} times, scheduled ${scheduled}, ${rows.length} attempts logged`,
        );
      else failing.abandoned += rows.filter((r) => r.abandoned).length;
    }
  }
  return [
    noProblems(
      'every event reached every healthy endpoint exactly once (by event id)',
      `${healthy.deliveries} deliveries, ${healthy.once} exactly once, ${healthy.repeated} calls made again and logged (in flight at the kill or when a lease ran out)`,
      healthy.problems,
    ),
    noProblems(
      `every failing endpoint's delivery made the scheduled ${scheduled} attempts, numbered 1 to ${scheduled} once each`,
      `${failing.deliveries} deliveries, ${failing.calls} calls received, ${failing.abandoned} attempts of the killed instance logged as timeouts`,
      failing.problems,
    ),
  ];
}
