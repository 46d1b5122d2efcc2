// The sandbox against Prism on the same reads (listBanks, listBankAccounts), and the sandbox on a write
// (createPayout): requests per second and p50/p99 latency with 1 and 32 concurrent clients, over loopback.
// Fair by construction: the same requests from the same client (node:http, keep-alive), each target in its
// own process, a warm-up, a fixed duration, and the two targets of a read interleaved in short slices.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { orThrow } from '../../src/index.js';
import { createSandboxClient } from '../../src/sandbox/client.js';
import { launchSandbox } from '../../src/testing/sandbox-process.js';
import { registerExampleUser } from '../../src/testing/sandbox-users.js';
import { apiFamilies } from './apis.js';
import { startPrism } from './prism.js';

export interface LoadRow {
  target: string;
  operation: string;
  concurrency: number;
  requests: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  failures: number;
}

interface Probe {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expected: number;
}

/** One request over a keep-alive agent of `concurrency` sockets: the same lean client for every target. */
function send(agent: Agent, probe: Probe): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(probe.url, { method: probe.method, agent, headers: { ...probe.headers, ...(probe.body ? { 'content-length': Buffer.byteLength(probe.body) } : {}) } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(probe.body);
  });
}

interface Tally {
  latencies: number[];
  failures: number;
  seconds: number;
}

async function drive(agent: Agent, probe: Probe, concurrency: number, seconds: number, tally?: Tally): Promise<void> {
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const status = await send(agent, probe);
        tally?.latencies.push(performance.now() - t);
        if (tally && status !== probe.expected) tally.failures++;
      }
    }),
  );
  if (tally) tally.seconds += (performance.now() - started) / 1000;
}

/**
 * The targets of one operation side by side: after a warm-up of each, they take turns in slices of
 * SLICE_S until each has had `seconds`, so a slow moment of the shared machine falls on both.
 */
async function interleaved(operation: string, concurrency: number, seconds: number, targets: { target: string; probe: Probe }[]): Promise<LoadRow[]> {
  const runs = targets.map((t) => ({ ...t, agent: new Agent({ keepAlive: true, maxSockets: concurrency }), tally: { latencies: [], failures: 0, seconds: 0 } as Tally }));
  try {
    for (const run of runs) await drive(run.agent, run.probe, concurrency, WARM_UP_S);
    for (let done = 0; done < seconds; done += SLICE_S) {
      for (const run of runs) await drive(run.agent, run.probe, concurrency, Math.min(SLICE_S, seconds - done), run.tally);
    }
  } finally {
    for (const run of runs) run.agent.destroy();
  }
  return runs.map(({ target, tally }) => {
    const latencies = tally.latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return { target, operation, concurrency, requests: latencies.length, perSecond: latencies.length / tally.seconds, p50ms: at(0.5), p99ms: at(0.99), failures: tally.failures };
  });
}

const WARM_UP_S = 0.5;
const SLICE_S = 0.5;

export async function sandboxVsPrism(seconds = 3): Promise<LoadRow[]> {
  const business = apiFamilies().find((a) => a.name === 'business')!;
  const prism = await startPrism({ bundle: business.bundleJson });
  // In its own process, as Prism is, so the load generator here does not share its event loop.
  const sandbox = await launchSandbox(['--memory']);
  try {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Bench' } }));
    const token = async (path: string, credentials: unknown) =>
      ((await (await fetch(sandbox.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })).json()) as { access_token: string }).access_token;
    const v1Token = await token('/api/v1/client/token', tenant.v1Credentials);
    const userId = await registerExampleUser(sandbox.url, tenant);
    await orThrow(control.approveUser({ params: { path: { userId } } }));
    let destinationId: string | undefined;
    for (let i = 0; i < 5; i++) {
      const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, userId } }));
      if (i === 0) {
        await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
        await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e12, currency: 'COP' } }));
        destinationId = account.accountId;
      }
    }
    const rows: LoadRow[] = [];
    const sandboxBearer = await token('/api/token', tenant.businessCredentials);
    const reads = (url: string, bearer: string) => ({
      listBanks: { method: 'GET', url: `${url}/api/parameters/banks`, expected: 200 },
      listBankAccounts: { method: 'GET', url: `${url}/api/accounts/${tenant.clientId}`, headers: { authorization: `Bearer ${bearer}` }, expected: 200 },
    }) satisfies Record<string, Probe>;
    const prismReads = reads(prism.url, 'bench-token');
    const sandboxReads = reads(sandbox.url, sandboxBearer);
    const payout: Probe = {
      method: 'POST',
      url: `${sandbox.url}/api/v1/admin/fiats/${userId}/payout`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${v1Token}` },
      body: JSON.stringify({ amount: 1000, currency: 'COP', destinationId: destinationId!, paymentMethod: 'ACH' }),
      expected: 201,
    };
    for (const concurrency of [1, 32]) {
      for (const operation of ['listBanks', 'listBankAccounts'] as const) {
        rows.push(...(await interleaved(operation, concurrency, seconds, [{ target: 'Prism', probe: prismReads[operation] }, { target: 'sandbox', probe: sandboxReads[operation] }])));
      }
      rows.push(...(await interleaved('createPayout', concurrency, seconds, [{ target: 'sandbox', probe: payout }])));
    }
    return rows;
  } finally {
    sandbox.child.kill('SIGTERM');
    await Promise.all([prism.stop(), sandbox.exit]);
  }
}

export function sandboxTable(rows: LoadRow[]): string[] {
  const ratio = (operation: string, concurrency: number) => {
    const of = (target: string) => rows.find((r) => r.target === target && r.operation === operation && r.concurrency === concurrency)?.perSecond ?? NaN;
    return of('sandbox') / of('Prism');
  };
  return [
    '| Sandbox vs Prism (each in its own process, loopback, PGlite in memory) | Operation | Clients | Requests | Per second | p50 | p99 | Not the expected status | Sandbox / Prism throughput |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.operation} | ${r.concurrency} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50ms.toFixed(2)} ms | ${r.p99ms.toFixed(2)} ms | ${r.failures} | ${
          r.target === 'sandbox' && r.operation !== 'createPayout' ? `${ratio(r.operation, r.concurrency).toFixed(2)}x` : ''
        } |`,
    ),
  ];
}
