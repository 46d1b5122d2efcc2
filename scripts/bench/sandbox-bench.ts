// The sandbox against Prism on the same reads (listBanks, listBankAccounts) (the writes: ./write-bench.ts):
// requests per second and p50/p99 latency with 1 and 32 concurrent clients, over loopback.
// Fair by construction: the same requests from the same load generator, each target in its own process, a
// warm-up, and the targets of a read taking turns in short slices, with the throughput ratio taken per turn.
// The generator is autocannon (raw sockets, requests built once): node:http's own client costs so much that,
// on two cores, it and not the server set the pace (a bare node:http server answering fixed bytes topped out
// where the sandbox did). A row for that bare server shows how far from Node's own floor each target is.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { businessOperations } from '../../src/client/generated/business-meta.js';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { launchSandbox } from '../../src/testing/sandbox-process.js';
import { registerExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { apiFamilies } from '../openapi/apis.js';
import { startPrism } from '../openapi/prism.js';
import { startBenchServer } from './bench-server.js';
import { percentile, ratioText } from './percentile.js';

export interface LoadRow {
  target: string;
  operation: string;
  concurrency: number;
  requests: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  failures: number;
  /** Throughput divided by Prism's, taken in each turn: median, 10th and 90th percentile. */
  toPrism?: { median: number; p10: number; p90: number };
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

interface Tally {
  latencies: number[];
  failures: number;
  seconds: number;
  /** Requests per second of each turn. */
  turns: number[];
}

/**
 * Longest a turn waits for every connection's first answer before it is counted anyway: a target that cannot
 * answer each of its connections within this long is measured with its connections' set-up in the turn.
 */
const SET_UP_LIMIT_MS = 5_000;

/**
 * `concurrency` keep-alive connections sending `probe`, counted for `seconds` from the moment every connection
 * has had its first answer; latencies in ms from autocannon's own timer.
 *
 * Autocannon opens its connections anew for each turn, and on a two-core machine a busy server's new
 * connections come through one at a time, slowly (a bare node:http server spending the sandbox's CPU per request
 * does the same; BENCHMARKS.md says how slowly), so a turn's first requests would measure connection set-up, not
 * the clients of a load that keeps its connections. A request sent before every connection was answered once is
 * not counted.
 */
async function drive(probe: Probe, concurrency: number, seconds: number, tally?: Tally): Promise<void> {
  let counted = 0;
  let countFrom: number | undefined;
  let countTo = Number.POSITIVE_INFINITY;
  const answeredOnce = new Set<unknown>();
  await new Promise<void>((resolve, reject) => {
    const run = autocannon(
      {
        url: probe.url,
        method: probe.method,
        headers: probe.headers,
        body: probe.body,
        connections: concurrency,
        duration: seconds + SET_UP_LIMIT_MS / 1000,
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
      },
      (error) => (error ? reject(error) : resolve()),
    );
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
        return;
      }
      if (sentAt < countFrom || performance.now() > countTo) return;
      counted++;
      if (!tally) return;
      tally.latencies.push(ms);
      if (status !== probe.expected) tally.failures++;
    });
    run.on('done', () => clearTimeout(setUpLimit));
  });
  if (!tally || countFrom === undefined) return;
  const elapsed = (Math.min(countTo, performance.now()) - countFrom) / 1000;
  tally.seconds += elapsed;
  tally.turns.push(counted / elapsed);
}

/**
 * The targets of one operation side by side: after a warm-up of each, they take turns in slices of SLICE_S
 * until each has had `seconds`, so a slow moment of the shared machine falls on all of them.
 */
export async function interleaved(
  operation: string,
  concurrency: number,
  seconds: number,
  targets: { target: string; probe: Probe }[],
): Promise<LoadRow[]> {
  const runs = targets.map((t) => ({ ...t, tally: { latencies: [], failures: 0, seconds: 0, turns: [] } as Tally }));
  for (const run of runs) await drive(run.probe, concurrency, WARM_UP_S);
  for (let done = 0; done < seconds; done += SLICE_S) {
    for (const run of runs) await drive(run.probe, concurrency, Math.min(SLICE_S, seconds - done), run.tally);
  }
  const prism = runs.find((r) => r.target === 'Prism')?.tally.turns;
  return runs.map(({ target, tally }) => {
    const latencies = tally.latencies.sort((a, b) => a - b);
    const ratios =
      prism && target !== 'Prism'
        ? tally.turns.map((perSecond, i) => perSecond / prism[i]!).sort((a, b) => a - b)
        : undefined;
    return {
      target,
      operation,
      concurrency,
      requests: latencies.length,
      perSecond: latencies.length / tally.seconds,
      p50ms: percentile(latencies, 0.5),
      p99ms: percentile(latencies, 0.99),
      failures: tally.failures,
      ...(ratios
        ? { toPrism: { median: percentile(ratios, 0.5), p10: percentile(ratios, 0.1), p90: percentile(ratios, 0.9) } }
        : {}),
    };
  });
}

const WARM_UP_S = 0.5;
const SLICE_S = 0.5;
/** The bare node:http server's row. */
export const FLOOR = 'node:http, fixed bytes';

export async function sandboxVsPrism(seconds = 4): Promise<LoadRow[]> {
  const business = apiFamilies().find((a) => a.name === 'business')!;
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const prism = await startPrism({ bundle: business.bundleJson });
    stops.push(prism.stop);
    // In its own process, as Prism is, so the load generator here does not share its event loop.
    const sandbox = await launchSandbox(['--memory']);
    stops.push(() => {
      sandbox.child.kill('SIGTERM');
      return sandbox.exit;
    });
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Bench' } }));
    const userId = await registerExampleUser(sandbox.url, tenant);
    await orThrow(control.approveUser({ params: { path: { userId } } }));
    for (let i = 0; i < 5; i++) {
      const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, userId } }));
      if (i === 0) {
        await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
        await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e12, currency: 'COP' } }));
      }
    }
    const rows: LoadRow[] = [];
    const sandboxBearer = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const reads = (url: string, bearer: string) =>
      ({
        listBanks: { method: 'GET', url: url + businessOperations.listBanks.path, expected: 200 },
        listBankAccounts: {
          method: 'GET',
          url: url + businessOperations.listBankAccounts.path.replace('{clientId}', tenant.clientId),
          headers: { authorization: `Bearer ${bearer}` },
          expected: 200,
        },
      }) satisfies Record<string, Probe>;
    const prismReads = reads(prism.url, 'bench-token');
    const sandboxReads = reads(sandbox.url, sandboxBearer);
    // Node's floor for each read: a bare node:http server answering the sandbox's own bytes for it.
    const floors = {} as Record<keyof typeof sandboxReads, Probe>;
    for (const operation of ['listBanks', 'listBankAccounts'] as const) {
      const { url, headers }: Probe = sandboxReads[operation];
      const floor = await startBenchServer(await (await fetch(url, { headers })).text());
      stops.push(floor.stop);
      floors[operation] = { ...sandboxReads[operation], url: floor.url + new URL(url).pathname };
    }
    for (const concurrency of [1, 32]) {
      for (const operation of ['listBanks', 'listBankAccounts'] as const) {
        const targets = [
          { target: 'Prism', probe: prismReads[operation] },
          { target: 'sandbox', probe: sandboxReads[operation] },
          { target: FLOOR, probe: floors[operation] },
        ];
        rows.push(...(await interleaved(operation, concurrency, seconds, targets)));
      }
    }
    return rows;
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
}

/** A row's throughput ratio to Prism as the tables print it; empty for Prism's own row. */
export const toPrismText = (r: LoadRow) => (r.toPrism ? ratioText(r.toPrism) : '');

export function sandboxTable(rows: LoadRow[]): string[] {
  return [
    "| Sandbox vs Prism (each in its own process, loopback, PGlite in memory, load from autocannon) | Operation | Clients | Requests | Per second | p50 | p99 | Not the expected status | Throughput / Prism's, per turn: median (p10–p90) |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.operation} | ${r.concurrency} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50ms.toFixed(2)} ms | ${r.p99ms.toFixed(2)} ms | ${r.failures} | ${toPrismText(r)} |`,
    ),
  ];
}

/** The target: the sandbox's read throughput at least 3x Prism's, in every cell (median of the turns). */
export function sandboxTargets(rows: LoadRow[]): string[] {
  return rows
    .filter((r) => r.target === 'sandbox' && r.toPrism)
    .map(
      (r) =>
        `- sandbox ${r.operation}, ${r.concurrency} client(s): ${toPrismText(r)} Prism's throughput (target at least 3x, median of per-turn ratios): ${r.toPrism!.median >= 3 ? 'met' : 'missed'}`,
    );
}
