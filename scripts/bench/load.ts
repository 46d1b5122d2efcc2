// The machinery of `npm run sandbox:load`: two sandbox processes on one PostgreSQL database,
// virtual clients running full flows through the typed clients, split across the two like a load balancer,
// healthy and failing webhook receivers, one instance SIGKILLed half-way; then the delivery queue is drained
// through the control API's clock and the outcome is checked straight in PostgreSQL and in the receivers'
// own logs. Loopback only; everything started here is stopped before it returns (also on failure). The parts:
// load-cluster.ts, load-flows.ts, load-evidence.ts, load-checks.ts, load-delivery-log.ts, load-report.ts.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { deliverySchedule } from '../../src/client/webhooks/index.js';
import { startedHere } from './harness.js';
import { checkDatabase } from './load-checks.js';
import { createBalancer, startCluster } from './load-cluster.js';
import { type Check, type Evidence, type Ledger, noProblems } from './load-evidence.js';
import { runFlows } from './load-flows.js';
import { type LoadReport, operationFigures } from './load-report.js';

export interface LoadOptions {
  /** An empty PostgreSQL database both instances share. */
  databaseUrl: string;
  /** Concurrent virtual clients (1 to MAX_CLIENTS). */
  clients: number;
  /** Seconds of load (1 to MAX_SECONDS); one instance is killed half-way. */
  seconds: number;
  log?: (line: string) => void;
}

export const MAX_CLIENTS = 64;
export const MAX_SECONDS = 600;

/** Throws, naming the option, when `clients` or `seconds` is out of its range. */
export function checkLoadOptions({ clients, seconds }: Pick<LoadOptions, 'clients' | 'seconds'>): void {
  if (!Number.isInteger(clients) || clients < 1 || clients > MAX_CLIENTS)
    throw new Error(`--clients must be an integer from 1 to ${MAX_CLIENTS}.`);
  if (!(seconds >= 1 && seconds <= MAX_SECONDS)) throw new Error(`--seconds must be from 1 to ${MAX_SECONDS}.`);
}

/**
 * Drains the delivery queue: the survivor's clock moves past every retry delay and past the lease of calls the
 * killed instance had claimed, until no delivery is pending. Resolves with how many are still pending, and the
 * clock's moves (to place the log's sandbox times on this process's clock when calls are matched).
 */
async function drainDeliveries(
  db: pg.Client,
  survivorUrl: string,
): Promise<{ pending: number; clock: Evidence['clock'] }> {
  const survivor = createSandboxClient({ baseUrl: survivorUrl, retry: false });
  // The clock's moves, to place the log's sandbox times on this process's clock when calls are matched.
  const clock: Evidence['clock'] = {
    offsetMs: Number((await db.query('select offset_ms from sandbox_clock where id = 1')).rows[0]?.offset_ms ?? 0),
    moves: [],
  };
  const step = Math.ceil(
    (deliverySchedule().timeoutMs + Math.max(...deliverySchedule().retryDelaysMs) + 10_000) / 1000,
  );
  // Before each move, nothing is due and no call is under way (the attempt counters stood still for 300 ms):
  // moving the clock past a call still under way would time it out in sandbox time and send it again.
  let pending = -1;
  for (let round = 0; round < deliverySchedule().calls + 6; round++) {
    let last = '';
    for (let stable = 0, polls = 0; stable < 3 && polls < 300; polls++) {
      const [row] = (
        await db.query<{ due: string; pending: string; progress: string }>(
          `select count(*) filter (where status = 'pending' and next_attempt_at <= now() + (select offset_ms from sandbox_clock) * interval '1 millisecond') as due,
                  count(*) filter (where status = 'pending') as pending,
                  sum(attempts) || '/' || (select count(*) from sandbox_delivery_attempts) as progress
             from sandbox_deliveries`,
        )
      ).rows;
      pending = Number(row!.pending);
      stable = Number(row!.due) === 0 && row!.progress === last ? stable + 1 : 0;
      last = row!.progress;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (pending === 0) break;
    const sentAt = performance.now();
    const advanced = await survivor.advanceClock({ body: { seconds: step } });
    if (!advanced.response.ok) throw new Error(`advanceClock answered ${advanced.response.status}`);
    clock.moves.push({ sentAt, answeredAt: performance.now(), offsetMs: advanced.data!.offsetSeconds * 1000 });
  }
  return { pending, clock };
}

/** Runs the load, the kill, the drain and the checks. Stops what it started before it resolves or throws. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const log = options.log ?? (() => {});
  checkLoadOptions(options);
  const db = new pg.Client({ connectionString: options.databaseUrl });
  const here = startedHere();
  try {
    const { receivers, instances } = await startCluster(options.databaseUrl, here);
    log(
      `Two sandboxes on one PostgreSQL: ${instances.map((i) => i.url).join(', ')}; receivers: healthy ${receivers.healthy.url}, 500 ${receivers.error500.url}, dropping ${receivers.drop.url}.`,
    );
    const balancer = createBalancer(instances);
    const ledger: Ledger = {
      created: new Map(),
      states: new Map(),
      funded: new Map(),
      races: { raced: 0, overAccepted: 0 },
      unexpected: [],
    };

    const started = performance.now();
    const until = started + options.seconds * 1000;
    let killedAt = 0;
    let killedAtMs = Infinity;
    let inFlightAtKill = 0;
    const victim = instances[1]!;
    const kill = setTimeout(
      () => {
        victim.killed = true;
        inFlightAtKill = victim.inFlight;
        killedAtMs = performance.now();
        killedAt = (killedAtMs - started) / 1000;
        victim.process.child.kill('SIGKILL');
        log(
          `SIGKILL sent to ${victim.url} at ${killedAt.toFixed(1)} s, with ${inFlightAtKill} requests in flight on it.`,
        );
      },
      (options.seconds * 1000) / 2,
    );
    const results = await Promise.all(
      Array.from({ length: options.clients }, (_, i) =>
        runFlows(instances[0]!.url, balancer, receivers, ledger, i, until),
      ),
    );
    clearTimeout(kill);
    const elapsed = (performance.now() - started) / 1000;
    await victim.process.exit;
    const flows = results.reduce(
      (a, r) => ({ completed: a.completed + r.completed, interrupted: a.interrupted + r.interrupted }),
      { completed: 0, interrupted: 0 },
    );
    log(
      `Load over after ${elapsed.toFixed(1)} s: ${flows.completed} flows completed, ${flows.interrupted} interrupted. Draining the delivery queue...`,
    );

    await db.connect();
    const { pending, clock } = await drainDeliveries(db, instances[0]!.url);
    log(`Delivery queue drained (${pending} pending).`);

    const evidence: Evidence = { ledger, receivers, killedAtMs, clock };
    const killed = victim.killed && (await victim.process.exit).signal === 'SIGKILL';
    const checks: Check[] = [
      { name: 'the delivery queue drained', pass: pending === 0, figures: `${pending} deliveries still pending` },
      ...(await checkDatabase(db, evidence)),
      noProblems(
        'no unexpected answer or network error on a live instance',
        `${ledger.unexpected.length} unexpected answers, ${balancer.errors.length} network errors`,
        [...ledger.unexpected, ...balancer.errors],
      ),
      {
        name: 'the killed instance was killed by SIGKILL half-way',
        pass: killed,
        figures: `at ${killedAt.toFixed(1)} s of ${elapsed.toFixed(1)} s`,
      },
    ];
    const operations = operationFigures(balancer, elapsed);
    const passed = checks.every((c) => c.pass);
    return { checks, operations, seconds: elapsed, killedAtSeconds: killedAt, inFlightAtKill, flows, passed, evidence };
  } finally {
    await db.end().catch(() => undefined);
    await here.stopAll();
  }
}
