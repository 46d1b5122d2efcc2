// The sandbox's writes (WRITES) against Prism answering the same request, with 1 and 32 clients, in the load turns
// of ./sandbox-bench.ts; their table with the floor's (./write-floor.ts) beside it. Prism has no control API:
// completePayout is set against Prism answering createPayout, a POST of the same shape.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { businessOperations } from '../../src/client/generated/business-meta.js';
import { sandboxOperations } from '../../src/client/generated/sandbox-meta.js';
import { v1Operations } from '../../src/client/generated/v1-meta.js';
import { createBusinessClient, orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { examplePerson, fundedExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { markdownTable, spread, startedHere } from './harness.js';
import { interleaved, type LoadRow, type LoadTarget, loadOf, ms, type Probe, toPrismText } from './sandbox-bench.js';
import type { FloorRow } from './write-floor.js';

/** The writes of the table, in its order. */
export const WRITES = [
  'createPayout',
  'createOnRamp',
  'createWalletTransfer',
  'createCustodyWallet',
  'registerUser',
  'createIntegrationEndpoint',
  'completePayout',
] as const;
type Write = (typeof WRITES)[number];

/** A sandbox to load: its name in the table and the arguments of `ramp-api-sandbox`, or another build's command. */
export interface SandboxTarget {
  target: string;
  bin?: string;
}

const json = { 'content-type': 'application/json' };

/** A tenant with an approved, funded user, an accepted bank account, an external wallet and two funded custody wallets. */
async function prepare(url: string) {
  const control = createSandboxClient({ baseUrl: url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Write bench' } }));
  const { userId, accountId } = await fundedExampleUser(url, tenant, 1e12);
  const { externalWalletId } = await orThrow(control.createExternalWallet({ body: { userId } }));
  const business = createBusinessClient({ baseUrl: url, auth: { credentials: tenant.businessCredentials } });
  const wallet = async () => {
    const path = { clientId: tenant.clientId, userId };
    const { id } = await orThrow(business.createCustodyWallet({ params: { path }, body: { token: 'USDC' } }));
    await orThrow(control.fundWallet({ params: { path: { walletId: id } }, body: { amount: 1e12 } }));
    return id;
  };
  const [origin, destination] = [await wallet(), await wallet()];
  return { tenant, userId, accountId, externalWalletId, origin, destination };
}
type Prepared = Awaited<ReturnType<typeof prepare>>;

/** The request of `write` to the server at `url` with its tokens; the same bytes go to Prism (with its own token). */
function probeOf(write: Exclude<Write, 'completePayout'>, url: string, p: Prepared, tokens: Tokens): Probe {
  const v1 = { ...json, authorization: `Bearer ${tokens.v1}` };
  const business = { ...json, authorization: `Bearer ${tokens.business}` };
  const fill = (path: string) =>
    url + path.replace('{user_id}', p.userId).replace('{userId}', p.userId).replace('{clientId}', p.tenant.clientId);
  const post = (path: string, headers: Record<string, string>, body: unknown, expected = 201): Probe => ({
    method: 'POST',
    url: fill(path),
    headers,
    body: JSON.stringify(body),
    expected,
  });
  switch (write) {
    case 'createPayout':
      return post(v1Operations.createPayout.path, v1, {
        amount: 1000,
        currency: 'COP',
        destinationId: p.accountId,
        paymentMethod: 'ACH',
      });
    case 'createOnRamp':
      return post(v1Operations.createOnRamp.path, v1, {
        amount: 50_000,
        paymentMethod: 'NEQUI',
        phone: '+573104567890',
        destination: { type: 'EXTERNAL', externalWalletId: p.externalWalletId },
      });
    case 'createWalletTransfer':
      return post(businessOperations.createWalletTransfer.path, business, {
        walletOriginId: p.origin,
        walletDestinationId: p.destination,
        amount: 1,
      });
    case 'createCustodyWallet':
      return post(businessOperations.createCustodyWallet.path, business, { token: 'USDC' });
    case 'registerUser':
      return post(
        v1Operations.registerUser.path,
        { ...v1, 'x-integration-register': p.tenant.integrationRegister },
        examplePerson(),
      );
    case 'createIntegrationEndpoint': {
      // A loopback address that nothing listens on, for an event no write of the bench emits for this tenant:
      // nothing is ever delivered to them. Each a name of its own (a name is unique per client).
      const prefix = `bench-${randomUUID().slice(0, 8)}`;
      let made = 0;
      const body = (name: string) =>
        JSON.stringify({
          name,
          direction: 'OUTBOUND',
          url: 'http://127.0.0.1:9/bench',
          httpMethod: 'POST',
          triggerEvent: 'fiat.payout.completed',
        });
      return {
        ...post(v1Operations.createIntegrationEndpoint.path, v1, {}),
        body: body('bench-probe'),
        nextBody: () => body(`${prefix}-${++made}`),
      };
    }
  }
}

interface Tokens {
  v1: string;
  business: string;
}

/** Fresh tokens (a business token lives five minutes of sandbox time, less than the section takes). */
const tokensOf = async (url: string, p: Prepared): Promise<Tokens> => ({
  v1: await sandboxToken(url, 'v1', p.tenant.v1Credentials),
  business: await sandboxToken(url, 'business', p.tenant.businessCredentials),
});

/** createPayout's request to the sandbox at `url`, on a tenant of its own (for profile-write.ts). */
export async function payoutProbe(url: string): Promise<Probe> {
  const prepared = await prepare(url);
  return probeOf('createPayout', url, prepared, await tokensOf(url, prepared));
}

/** `count` pending payouts made by createPayout (`probe`), their IDs read from the answers. */
async function pendingPayouts(probe: Probe, count: number): Promise<string[]> {
  const ids: string[] = [];
  await autocannon({
    ...loadOf(probe, 8, 0),
    amount: count,
    requests: [
      { onResponse: (status, body) => void (status === 201 && ids.push((JSON.parse(body) as { id: string }).id)) },
    ],
  });
  return ids;
}

/** The status Prism answers `probe` with (its example's): a write Prism refuses is a mistake of the bench. */
async function prismStatus(probe: Probe): Promise<number> {
  const answer = await fetch(probe.url, { method: probe.method, headers: probe.headers, body: probe.body });
  if (answer.status >= 300)
    throw new Error(`Prism answered ${probe.url} with ${answer.status}: ${await answer.text()}`);
  return answer.status;
}

/**
 * Every write of WRITES with 1 and 32 clients: Prism and each sandbox of `sandboxes` (the built package by
 * default; another build's command for a before-and-after run) taking turns.
 */
export async function writesVsPrism(
  seconds = 4,
  sandboxes: SandboxTarget[] = [{ target: 'sandbox' }],
): Promise<LoadRow[]> {
  const here = startedHere();
  try {
    const prism = { v1: await here.prism('v1'), business: await here.prism('business') };
    const started = [];
    for (const s of sandboxes) started.push({ ...s, url: (await here.sandbox(['--memory'], { bin: s.bin })).url });
    const prismTokens = { v1: 'bench-token', business: 'bench-token' };
    const prismUrl = (write: Write) =>
      write === 'createWalletTransfer' || write === 'createCustodyWallet' ? prism.business.url : prism.v1.url;
    const rows: LoadRow[] = [];
    for (const concurrency of [1, 32]) {
      for (const write of WRITES) {
        const asked = write === 'completePayout' ? 'createPayout' : write;
        // Each write on a tenant of its own in each sandbox: the section's writes together make more records than
        // the sandbox keeps for one tenant (its quota), and no write meets another's records or events.
        const tenants = [];
        for (const s of started) tenants.push(await prepare(s.url));
        const reference = probeOf(asked, prismUrl(asked), tenants[0]!, prismTokens);
        reference.expected = await prismStatus(reference);
        const targets: LoadTarget[] = [{ target: 'Prism', probe: reference }];
        for (const [i, s] of started.entries()) {
          const prepared = tenants[i]!;
          const probe = {
            ...probeOf(asked, s.url, prepared, await tokensOf(s.url, prepared)),
            expected: reference.expected,
          };
          if (write === 'completePayout') {
            // Enough pending payouts for the warm-up and every turn, at the pace createPayout kept here.
            const created = rows.find(
              (r) => r.target === s.target && r.operation === 'createPayout' && r.concurrency === concurrency,
            )!;
            // A state change costs less than a creation: eight times createPayout's pace, and some to spare. A
            // turn that runs out of them answers 404s, counted as not the expected status (and then not judged).
            const ids = await pendingPayouts(probe, Math.ceil(created.perSecond * (seconds + 1) * 8) + 500);
            const complete = sandboxOperations.completePayout.path;
            targets.push({
              target: s.target,
              probe: {
                method: 'POST',
                url: s.url + complete.replace('{payoutId}', ids[0]!),
                // The sandbox runs without an admin token: a control call needs none.
                headers: {},
                expected: 200,
                nextPath: () => complete.replace('{payoutId}', ids.pop() ?? 'none-left'),
              },
            });
          } else targets.push({ target: s.target, probe });
        }
        if (write === 'completePayout') reference.nextPath = () => new URL(reference.url).pathname;
        rows.push(...(await interleaved(write, concurrency, seconds, targets)));
      }
    }
    return rows;
  } finally {
    await here.stopAll();
  }
}

/** The writes' table, the floor's beside it: each sandbox row also as a share of the floor's transactions per second. */
export function writeTable(rows: LoadRow[], floor: FloorRow[]): string[] {
  const best = Math.max(...floor.map((f) => f.perSecond));
  return [
    ...markdownTable(
      "Writes: sandbox vs Prism (each in its own process, loopback, PGlite in memory, load from autocannon) | Operation | Clients | Requests | Per second | p50 | p99 | p99 / p50 | Not the expected status | Throughput / Prism's, per turn: median (p10–p90) | Per second / the floor's best",
      rows.map(
        (r) =>
          `${r.target} | ${r.operation} | ${r.concurrency} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${ms(r.p50ms)} | ${ms(r.p99ms)} | ${(r.p99ms / r.p50ms).toFixed(1)} | ${r.failures} | ${toPrismText(r)} | ${r.target === 'Prism' ? '' : (r.perSecond / best).toFixed(2)}`,
      ),
    ),
    '',
    ...markdownTable(
      "The floor: createPayout's statements straight on PGlite in memory, in this process, variants taking turns | Transactions | Per second | Per turn: median (p10–p90)",
      floor.map((f) => [f.variant, f.transactions, f.perSecond.toFixed(0), spread(f.turns, (n) => n.toFixed(0))]),
    ),
  ];
}

/** The targets for every write of every sandbox row: at least Prism's throughput, and p99 at most 10x p50 at 32 clients. */
export function writeTargets(rows: LoadRow[]): string[] {
  return rows
    .filter((r) => r.target !== 'Prism' && r.toPrism)
    .flatMap((r) => [
      r.failures
        ? `- ${r.target} ${r.operation}, ${r.concurrency} client(s): not judged, ${r.failures} answers were not the expected status`
        : `- ${r.target} ${r.operation}, ${r.concurrency} client(s): ${toPrismText(r)} Prism's throughput (target at least 1x, median of per-turn ratios): ${r.toPrism!.median >= 1 ? 'met' : 'missed'}`,
      ...(r.concurrency === 32
        ? [
            `- ${r.target} ${r.operation}, 32 clients: p99 ${(r.p99ms / r.p50ms).toFixed(1)}x p50 (target at most 10x): ${r.p99ms <= 10 * r.p50ms ? 'met' : 'missed'}`,
          ]
        : []),
    ]);
}
