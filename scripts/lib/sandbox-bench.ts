// The sandbox against Prism on the same reads (listBanks, listBankAccounts), and the sandbox on a write
// (createPayout): requests per second and p50/p99 latency with 1 and 32 concurrent clients, over loopback.
import { performance } from 'node:perf_hooks';
import { orThrow } from '../../src/index.js';
import { readBundleFile } from '../../src/openapi/document.js';
import { createSandboxClient } from '../../src/sandbox/client.js';
import { launchSandbox } from '../../src/testing/sandbox-process.js';
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

async function load(target: string, operation: string, concurrency: number, seconds: number, send: () => Promise<Response>, expected: number): Promise<LoadRow> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await send();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== expected) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { target, operation, concurrency, requests: latencies.length, perSecond: latencies.length / elapsed, p50ms: at(0.5), p99ms: at(0.99), failures };
}

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
    const { external_user_id: _fixed, ...person } = (readBundleFile('v1') as any).components.examples.RegisterNaturalPerson.value;
    const v1Token = await token('/api/v1/client/token', tenant.v1Credentials);
    const registered = await fetch(`${sandbox.url}/api/v1/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${v1Token}`, 'x-integration-register': tenant.integrationRegister },
      body: JSON.stringify(person),
    });
    const userId = ((await registered.json()) as { user_id: string }).user_id;
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
    for (const concurrency of [1, 32]) {
      for (const [target, url, bearer] of [
        ['Prism', prism.url, 'bench-token'],
        ['sandbox', sandbox.url, await token('/api/token', tenant.businessCredentials)],
      ] as const) {
        rows.push(await load(target, 'listBanks', concurrency, seconds, () => fetch(`${url}/api/parameters/banks`), 200));
        const accounts = `${url}/api/accounts/${tenant.clientId}`;
        rows.push(await load(target, 'listBankAccounts', concurrency, seconds, () => fetch(accounts, { headers: { authorization: `Bearer ${bearer}` } }), 200));
      }
      const payout = JSON.stringify({ amount: 1000, currency: 'COP', destinationId: destinationId!, paymentMethod: 'ACH' });
      const path = `${sandbox.url}/api/v1/admin/fiats/${userId}/payout`;
      rows.push(
        await load('sandbox', 'createPayout', concurrency, seconds, () => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${v1Token}` }, body: payout }), 201),
      );
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
