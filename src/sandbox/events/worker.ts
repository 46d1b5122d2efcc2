// The delivery worker: takes due attempts from the database (sandbox time), POSTs the envelope, records the
// outcome and schedules the next retry per deliverySchedule(). A claimed attempt is leased: its
// next_attempt_at moves past its timeout, so a delivery held by a sandbox killed mid-call is taken again when
// the lease runs out. Every claim makes the next attempt: one whose instance died before recording it is logged
// as a timeout and counts as made, so the endpoint never gets more calls than the schedule has.
// On PostgreSQL, `for update skip locked` lets several instances share the queue; each pass reads the shared
// clock first, so a lease runs out in the same sandbox time for every instance.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type EndpointPolicy, endpointPolicy } from '../core/addresses.js';
import type { Clock } from '../core/clock.js';
import { type SandboxLogger, stderrLogger } from '../core/logger.js';
import { runPasses } from '../core/passes.js';
import { loadClockOffset } from '../store/clock-offset.js';
import type { Db, Sql } from '../store/db.js';

export interface DeliveryWorker {
  /** Runs one pass now (due attempts are sent); resolves when their calls are recorded. */
  kick(): Promise<void>;
  /** Resolves when no call is under way and nothing is due now. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface DueRow {
  id: string;
  tenant_id: string;
  url: string;
  timeout_ms: number;
  retry_delays_ms: number[];
  /** Claims made so far (this one not counted). */
  attempts: number;
  /** The attempt the previous claim made (0: none); this claim makes the one after it. */
  last_attempt: number;
  /** When the previous claim started. */
  claimed_at: Date | string | null;
  /** Whether the previous claim is not in the log: its instance died before recording it (or is still calling). */
  unlogged: boolean;
  payload: unknown;
}

/** A claimed delivery: the row, the attempt this claim makes and when it started. */
type Claimed = DueRow & { attempt: number; startedAt: Date };

const LEASE_MARGIN_MS = 5_000;
/** Calls of one tenant in flight at once on one instance, and of all tenants. */
const PER_TENANT = 8;
const MAX_IN_FLIGHT = 64;
const BATCH = 32;

type Outcome =
  | { outcome: 'delivered' | 'http_status'; status: number }
  | { outcome: 'timeout' | 'connection_error'; status: null };

/** What the sandbox reads of an endpoint's answer at most: the status is all it needs; the rest is left unread. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url` and resolves with the answer's status. Never follows a redirect (a 3xx is the answer),
 * reads at most MAX_ANSWER_BYTES of the answer, and connects only to an address `endpoints` allows: an address
 * in the URL is checked before connecting, a host name's addresses when it is resolved.
 */
function post(url: string, body: string, signal: AbortSignal, endpoints: EndpointPolicy): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const refused = isIP(host) ? endpoints.refuseAddress(host) : null;
    if (refused) return reject(new Error(refused));
    const lookup: LookupFunction = (hostname, options, callback) =>
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        const allowed = addresses.filter((a) => endpoints.refuseAddress(a.address) === null);
        if (!allowed.length)
          return callback(new Error(`${hostname} resolves only to addresses the sandbox does not deliver to`), '', 0);
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal,
        lookup,
        agent: false,
      },
      (res) => {
        let read = 0;
        const done = () => {
          res.destroy();
          resolve(res.statusCode ?? 0);
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        res.once('end', done);
        res.once('error', done);
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

/**
 * Whether a claim has anything to do: a pending delivery due now, or one to a business webhook deleted
 * since. A plain select, so a poll with nothing due takes no transaction and writes nothing: on PGlite it
 * is answered from memory until the next write (and every write that could change it is one), so idle
 * polls neither run SQL nor empty the memory the API's reads are answered from.
 */
async function anythingToClaim(db: Db, now: Date): Promise<boolean> {
  const [row] = await db.reads.query<{ due: Date | string | null; orphaned: boolean | null }>(
    `select min(d.next_attempt_at) as due, bool_or(d.endpoint_kind = 'business' and w.status = false) as orphaned
       from sandbox_deliveries d left join business_webhooks w on d.endpoint_kind = 'business' and w.id = d.endpoint_id
      where d.status = 'pending'`,
  );
  if (!row) return false;
  return row.orphaned === true || (row.due !== null && new Date(row.due).getTime() <= now.getTime());
}

/**
 * Claims the deliveries due now, at most `room` of them and PER_TENANT a tenant less what `busy` has in flight,
 * and leases each to this instance. Resolves with the attempts to make.
 */
async function claimDue(db: Db, clock: Clock, room: number, busy: Map<string, number>): Promise<Claimed[]> {
  if (room <= 0 || !(await anythingToClaim(db, clock.now()))) return [];
  return db.transaction(async (tx) => {
    // Sandbox time is shared by the instances on one database: another may have advanced it. Without this,
    // an instance ahead of the others would take a call another is still making for one whose lease ran out.
    clock.setOffset(await loadClockOffset(tx, true));
    const now = clock.now();
    // A business webhook deleted (status false) while a retry was pending gets nothing more.
    await tx.query(
      `update sandbox_deliveries d set status = 'skipped', next_attempt_at = null from business_webhooks w
        where d.status = 'pending' and d.endpoint_kind = 'business' and w.id = d.endpoint_id and not w.status`,
    );
    // `attempts` counts claims; each claim makes the attempt after the previous claim's. A claim whose instance
    // died before recording it (it may have reached the endpoint) is logged by the next claim as a timeout and
    // counts as made: the next attempt follows the schedule after it, and none follows the last.
    // Tenants apart: at most PER_TENANT calls of one tenant in flight on this instance and MAX_IN_FLIGHT in all,
    // each tenant's due deliveries taken in turn (its first, then every tenant's second...), so one tenant's
    // hanging or failing endpoints never hold up another's deliveries nor use up the process's connections.
    const rows = await tx.query<DueRow>(
      `select d.id, d.tenant_id, d.url, d.timeout_ms, d.retry_delays_ms, d.attempts,
              coalesce(d.claim_attempt, 0) as last_attempt, d.claimed_at,
              d.claim_attempt is not null and not exists
                (select 1 from sandbox_delivery_attempts a where a.delivery_id = d.id and a.claim = d.attempts) as unlogged,
              e.payload
         from sandbox_deliveries d join sandbox_events e on e.id = d.event_id
         join (select id, row_number() over (partition by tenant_id order by next_attempt_at, id) as turn
                 from sandbox_deliveries where status = 'pending' and next_attempt_at <= $1) ranked on ranked.id = d.id
        where d.status = 'pending' and d.next_attempt_at <= $1
          and ranked.turn <= $2 - coalesce((($3::jsonb) ->> d.tenant_id::text)::int, 0)
        order by ranked.turn, d.next_attempt_at limit $4 for update of d skip locked`,
      [now.toISOString(), PER_TENANT, JSON.stringify(Object.fromEntries(busy)), room],
    );
    const claimed: Claimed[] = [];
    for (const r of rows) {
      if (r.unlogged && !(await settleAbandoned(tx, r, now))) continue;
      const attempt = r.last_attempt + 1;
      await tx.query(
        'update sandbox_deliveries set attempts = attempts + 1, next_attempt_at = $2, claim_attempt = $3, claimed_at = $4 where id = $1',
        [r.id, new Date(now.getTime() + r.timeout_ms + LEASE_MARGIN_MS).toISOString(), attempt, now.toISOString()],
      );
      claimed.push({ ...r, attempt, startedAt: now });
    }
    return claimed;
  });
}

/**
 * The previous claim of `row` ran out its lease unrecorded: logs it as a timeout (the call the sandbox got no
 * answer to) and schedules what follows it as after any failed attempt: the next attempt its retry delay after
 * the timeout, or none after the last. Resolves whether the next attempt is due now.
 */
async function settleAbandoned(tx: Sql, row: DueRow, now: Date): Promise<boolean> {
  await tx.query(
    `insert into sandbox_delivery_attempts (delivery_id, claim, attempt, started_at, finished_at, outcome, http_status, abandoned)
     select id, attempts, claim_attempt, claimed_at, claimed_at + timeout_ms * interval '1 millisecond', 'timeout', null, true
       from sandbox_deliveries where id = $1
     on conflict (delivery_id, claim) do nothing`,
    [row.id],
  );
  const delay = row.retry_delays_ms[row.last_attempt - 1];
  if (delay === undefined) {
    await tx.query(`update sandbox_deliveries set status = 'failed', next_attempt_at = null where id = $1`, [row.id]);
    return false;
  }
  const due = new Date(new Date(row.claimed_at!).getTime() + row.timeout_ms + delay);
  if (due.getTime() <= now.getTime()) return true;
  await tx.query('update sandbox_deliveries set next_attempt_at = $2 where id = $1', [row.id, due.toISOString()]);
  return false;
}

/** Records the outcome of a claimed attempt, and what follows it: delivered, the next retry, or failed. */
async function record(db: Db, clock: Clock, row: Claimed, result: Outcome): Promise<void> {
  const attempt = row.attempt;
  const claim = row.attempts + 1;
  const delays = row.retry_delays_ms;
  const done = result.outcome === 'delivered';
  const exhausted = !done && attempt > delays.length;
  // A retry falls due its delay after the failed call ended (a timeout ends timeoutMs after the start).
  const finishedAt = clock.now();
  const next = done || exhausted ? null : new Date(finishedAt.getTime() + delays[attempt - 1]!).toISOString();
  await db.transaction(async (tx) => {
    // Only while the claim is still this worker's: once its lease passed and another instance claimed the
    // delivery again (attempts moved on), that instance's outcome is the one that counts. First, as a claim
    // takes the delivery's row before its log rows: taken the other way round, the two would deadlock.
    await tx.query('update sandbox_deliveries set status = $2, next_attempt_at = $3 where id = $1 and attempts = $4', [
      row.id,
      done ? 'delivered' : exhausted ? 'failed' : 'pending',
      next,
      claim,
    ]);
    // The call is logged whatever happened meanwhile: under its own claim number, which no other claim has.
    // The one row it can meet is the timeout a later claim logged for it, which its real outcome replaces.
    await tx.query(
      `insert into sandbox_delivery_attempts (delivery_id, claim, attempt, started_at, finished_at, outcome, http_status)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (delivery_id, claim) do update
         set finished_at = excluded.finished_at, outcome = excluded.outcome, http_status = excluded.http_status, abandoned = false`,
      [row.id, claim, attempt, row.startedAt.toISOString(), finishedAt.toISOString(), result.outcome, result.status],
    );
  });
}

export function startDeliveryWorker(
  db: Db,
  clock: Clock,
  options: {
    pollMs?: number;
    endpoints?: EndpointPolicy;
    logger?: SandboxLogger;
    /** Throws while the store's disk is below its reserve: no attempt is claimed then (store/disk-space.ts). */
    checkSpace?: () => Promise<void>;
  } = {},
): DeliveryWorker {
  const endpoints = options.endpoints ?? endpointPolicy();
  const logger = options.logger ?? stderrLogger();
  const inflight = new Set<{ deadline: number; abort: AbortController }>();
  const tasks = new Set<Promise<void>>();
  /** Calls in flight on this instance, by tenant. */
  const busy = new Map<string, number>();

  async function call(row: DueRow): Promise<Outcome> {
    const abort = new AbortController();
    // The timeout runs in sandbox time: advanceClock past it aborts the call at once.
    const entry = { deadline: clock.now().getTime() + row.timeout_ms, abort };
    inflight.add(entry);
    try {
      const status = await post(row.url, JSON.stringify(row.payload), abort.signal, endpoints);
      return { outcome: status >= 200 && status < 300 ? 'delivered' : 'http_status', status };
    } catch {
      return abort.signal.aborted
        ? { outcome: 'timeout', status: null }
        : { outcome: 'connection_error', status: null };
    } finally {
      inflight.delete(entry);
    }
  }

  function expire(): void {
    const now = clock.now().getTime();
    for (const entry of inflight) if (entry.deadline <= now) entry.abort.abort();
  }

  async function pass(): Promise<void> {
    await clock.sync();
    expire();
    await options.checkSpace?.();
    const due = await claimDue(db, clock, Math.min(BATCH, MAX_IN_FLIGHT - tasks.size), busy);
    // A full batch: more may be due; take them without waiting for the next tick.
    if (due.length === BATCH) setImmediate(() => void kick().catch(() => undefined));
    for (const row of due) {
      busy.set(row.tenant_id, (busy.get(row.tenant_id) ?? 0) + 1);
      const task: Promise<void> = call(row)
        .then((result) => record(db, clock, row, result))
        .catch((error: unknown) =>
          logger.error(`[sandbox] delivery: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => {
          tasks.delete(task);
          const left = (busy.get(row.tenant_id) ?? 1) - 1;
          if (left > 0) busy.set(row.tenant_id, left);
          else busy.delete(row.tenant_id);
        });
      tasks.add(task);
    }
  }

  /** Resolves when no call is under way and nothing is due. */
  async function idle(): Promise<void> {
    for (;;) {
      await kick();
      if (!tasks.size) return;
      await Promise.all([...tasks]);
    }
  }

  const passes = runPasses(pass, {
    pollMs: options.pollMs ?? 20,
    logger,
    idle: undefined,
    failed: (message) => `[sandbox] delivery worker (retrying every pass until the database answers): ${message}`,
    recovered: '[sandbox] delivery worker: the database answers again.',
    onTick: expire,
  });
  const { kick } = passes;

  return {
    kick,
    idle,
    async close() {
      const stopping = passes.stop();
      for (const entry of inflight) entry.abort.abort();
      await stopping;
      await Promise.all([...tasks]);
    },
  };
}
