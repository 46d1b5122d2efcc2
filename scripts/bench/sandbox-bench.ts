// The sandbox against Prism on the same reads (listBanks, listBankAccounts), with 1 and 32 clients over loopback,
// loaded by autocannon in half-second turns on the harness; and the load turns the writes (./write-bench.ts) take
// too. Why autocannon, and why a turn waits for every connection's first answer: BENCHMARKS.md.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { businessOperations } from '../../src/client/generated/business-meta.js';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { fundedExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { startBenchServer } from './bench-server.js';
import { markdownTable, percentile, ratioText, type Summary, sideBySide, startedHere } from './harness.js';

export interface LoadRow {
  target: string;
  operation: string;
  concurrency: number;
  requests: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  failures: number;
  /** Throughput divided by Prism's, taken in each turn. */
  toPrism?: Summary;
}

export interface Probe {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expected: number;
  /** A new path for each request (a record a write may change only once); the URL's path otherwise. */
  nextPath?: () => string;
  /** A new body for each request (a name that must be unique); `body` otherwise. */
  nextBody?: () => string;
}

/** What one turn of load measured: latencies in ms from autocannon's own timer. */
interface LoadTurn {
  perSecond: number;
  latencies: number[];
  failures: number;
  seconds: number;
}

/**
 * Longest a turn waits for every connection's first answer before it is counted anyway: a target that cannot
 * answer each of its connections within this long is measured with its connections' set-up in the turn.
 */
const SET_UP_LIMIT_MS = 5_000;
/** The length of a turn, and of the warm-up turn. */
const TURN_S = 0.5;

/** autocannon's options for `concurrency` connections sending `probe` for `seconds`. */
export const loadOf = (probe: Probe, concurrency: number, seconds: number): autocannon.Options => ({
  url: probe.url,
  method: probe.method,
  headers: probe.headers,
  body: probe.body,
  connections: concurrency,
  duration: seconds,
  sampleInt: 50,
  ...(probe.nextPath || probe.nextBody
    ? {
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              ...(probe.nextPath ? { path: probe.nextPath() } : {}),
              ...(probe.nextBody ? { body: probe.nextBody() } : {}),
            }),
          },
        ],
      }
    : {}),
});

/**
 * `concurrency` keep-alive connections sending `probe`, counted for `seconds` from the moment every connection
 * has had its first answer: a turn measures clients that keep their connections, not connection set-up.
 */
async function drive(probe: Probe, concurrency: number, seconds: number): Promise<LoadTurn> {
  const turn: LoadTurn = { perSecond: 0, latencies: [], failures: 0, seconds: 0 };
  let countFrom: number | undefined;
  let countTo = Number.POSITIVE_INFINITY;
  const answeredOnce = new Set<unknown>();
  await new Promise<void>((resolve, reject) => {
    const load = loadOf(probe, concurrency, seconds + SET_UP_LIMIT_MS / 1000);
    const run = autocannon(load, (error) => (error ? reject(error) : resolve()));
    const startCounting = () => {
      if (countFrom !== undefined) return;
      countFrom = performance.now();
      setTimeout(() => {
        countTo = performance.now();
        run.stop();
      }, seconds * 1000);
    };
    const setUpLimit = setTimeout(startCounting, SET_UP_LIMIT_MS);
    run.on('response', (client, status, _bytes, ms) => {
      const sentAt = performance.now() - ms;
      if (countFrom === undefined) {
        answeredOnce.add(client);
        if (answeredOnce.size === concurrency) {
          clearTimeout(setUpLimit);
          startCounting();
        }
      } else if (sentAt >= countFrom && performance.now() <= countTo) {
        turn.latencies.push(ms);
        if (status !== probe.expected) turn.failures++;
      }
    });
    run.on('done', () => clearTimeout(setUpLimit));
  });
  if (countFrom === undefined) return turn;
  turn.seconds = (Math.min(countTo, performance.now()) - countFrom) / 1000;
  turn.perSecond = turn.latencies.length / turn.seconds;
  return turn;
}

/** A load target: Prism is the reference; the bare node:http server, where there is one, the floor. */
export interface LoadTarget {
  target: string;
  probe: Probe;
}

/** The targets of one operation side by side on the harness: a warm-up turn each, then half-second turns until each has had `seconds`. */
export async function interleaved(
  operation: string,
  concurrency: number,
  seconds: number,
  targets: LoadTarget[],
): Promise<LoadRow[]> {
  const contenders = targets.map(({ target, probe }) => ({
    name: target,
    ...(target === 'Prism' ? { role: 'reference' as const } : target === FLOOR ? { role: 'floor' as const } : {}),
    turn: () => drive(probe, concurrency, TURN_S),
  }));
  const compared = await sideBySide(contenders, { turns: Math.ceil(seconds / TURN_S), warmUp: 1 }, (t) => t.perSecond);
  const total = (values: number[]) => values.reduce((n, v) => n + v, 0);
  return compared.map(({ name, turns, ratio }) => {
    const latencies = turns.flatMap((t) => t.latencies).sort((a, b) => a - b);
    return {
      target: name,
      operation,
      concurrency,
      requests: latencies.length,
      perSecond: latencies.length / total(turns.map((t) => t.seconds)),
      p50ms: percentile(latencies, 0.5),
      p99ms: percentile(latencies, 0.99),
      failures: total(turns.map((t) => t.failures)),
      ...(ratio ? { toPrism: ratio } : {}),
    };
  });
}

/** The bare node:http server's row. */
export const FLOOR = 'node:http, fixed bytes';

export async function sandboxVsPrism(seconds = 4): Promise<LoadRow[]> {
  const started = startedHere();
  try {
    const prism = await started.prism('business');
    // In its own process, as Prism is, so the load generator here does not share its event loop.
    const sandbox = await started.sandbox(['--memory']);
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Bench' } }));
    // Five bank accounts to list, the first accepted.
    const { userId } = await fundedExampleUser(sandbox.url, tenant, 1e12);
    for (let i = 0; i < 4; i++)
      await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, userId } }));
    const read = (url: string, bearer: string, operation: 'listBanks' | 'listBankAccounts'): Probe => ({
      method: 'GET',
      url: url + businessOperations[operation].path.replace('{clientId}', tenant.clientId),
      ...(operation === 'listBankAccounts' ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
      expected: 200,
    });
    const sandboxBearer = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const targets = new Map<string, LoadTarget[]>();
    for (const operation of ['listBanks', 'listBankAccounts'] as const) {
      const probe = read(sandbox.url, sandboxBearer, operation);
      // Node's floor for each read: a bare node:http server answering the sandbox's own bytes for it.
      const floor = await startBenchServer(await (await fetch(probe.url, { headers: probe.headers })).text());
      started.add(floor.stop);
      targets.set(operation, [
        { target: 'Prism', probe: read(prism.url, 'bench-token', operation) },
        { target: 'sandbox', probe },
        { target: FLOOR, probe: { ...probe, url: floor.url + new URL(probe.url).pathname } },
      ]);
    }
    const rows: LoadRow[] = [];
    for (const concurrency of [1, 32])
      for (const [operation, of] of targets) rows.push(...(await interleaved(operation, concurrency, seconds, of)));
    return rows;
  } finally {
    await started.stopAll();
  }
}

/** A row's throughput ratio to Prism as the tables print it; empty for Prism's own row. */
export const toPrismText = (r: LoadRow) => (r.toPrism ? ratioText(r.toPrism) : '');
export const ms = (n: number) => `${n.toFixed(2)} ms`;

export const sandboxTable = (rows: LoadRow[]): string[] =>
  markdownTable(
    "Sandbox vs Prism (each in its own process, loopback, PGlite in memory, load from autocannon) | Operation | Clients | Requests | Per second | p50 | p99 | Not the expected status | Throughput / Prism's, per turn: median (p10–p90)",
    rows.map(
      (r) =>
        `${r.target} | ${r.operation} | ${r.concurrency} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${ms(r.p50ms)} | ${ms(r.p99ms)} | ${r.failures} | ${toPrismText(r)}`,
    ),
  );

/** The target: the sandbox's read throughput at least 3x Prism's, in every cell (median of the turns). */
export function sandboxTargets(rows: LoadRow[]): string[] {
  return rows
    .filter((r) => r.target === 'sandbox' && r.toPrism)
    .map(
      (r) =>
        `- sandbox ${r.operation}, ${r.concurrency} client(s): ${toPrismText(r)} Prism's throughput (target at least 3x, median of per-turn ratios): ${r.toPrism!.median >= 3 ? 'met' : 'missed'}`,
    );
}
