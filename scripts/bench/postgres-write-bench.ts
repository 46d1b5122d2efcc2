// Two sandbox instances on one PostgreSQL server against one: createPayout from 32 clients, as two groups of 16
// (each group paying out from a user of its own, so the groups do not queue on one balance row), sent either
// both to instance A or one group to A and one to B. The two ways take turns on the harness; the ratio of the
// requests per second of both groups together is taken in each turn.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { v1Operations } from '../../src/client/generated/v1-meta.js';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createDatabase, postgresUnavailable, startPostgres } from '../../src/testing/postgres.js';
import { fundedExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { markdownTable, ratioText, type Summary, sideBySide, startedHere } from './harness.js';

export interface TwoInstancesResult {
  /** Requests per second of both groups together, per turn: the mean over the turns. */
  one: number;
  two: number;
  /** Two instances' requests per second over one's, per turn. */
  ratio: Summary;
  failures: number;
}

const TURN_S = 1;

/** Both groups at once for one turn: requests per second of the two together, and the answers that were not 201. */
async function turn(urls: string[], bodies: string[], paths: string[], headers: Record<string, string>) {
  const started = performance.now();
  const results = await Promise.all(
    urls.map((url, i) =>
      autocannon({ url: url + paths[i]!, method: 'POST', headers, body: bodies[i], connections: 16, duration: TURN_S }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    perSecond: results.reduce((n, r) => n + r.requests.total, 0) / seconds,
    failures: results.reduce((n, r) => n + r.non2xx + r.errors, 0),
  };
}

/** Undefined when PostgreSQL is not installed here. */
export async function twoInstances(seconds = 6): Promise<TwoInstancesResult | undefined> {
  if (postgresUnavailable()) return undefined;
  const cluster = await startPostgres();
  const here = startedHere();
  try {
    const databaseUrl = await createDatabase(cluster.url, 'writebench');
    const [a, b] = [
      await here.sandbox(['--database-url', databaseUrl]),
      await here.sandbox(['--database-url', databaseUrl]),
    ];
    const control = createSandboxClient({ baseUrl: a.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Two instances' } }));
    const users = [await fundedExampleUser(a.url, tenant, 1e12), await fundedExampleUser(a.url, tenant, 1e12)];
    // A v1 token is the tenant's on every instance of the database.
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${await sandboxToken(a.url, 'v1', tenant.v1Credentials)}`,
    };
    const paths = users.map((u) => v1Operations.createPayout.path.replace('{user_id}', u.userId));
    const bodies = users.map((u) =>
      JSON.stringify({ amount: 1, currency: 'COP', destinationId: u.accountId, paymentMethod: 'ACH' }),
    );
    const ways = [
      { name: 'one', role: 'reference' as const, turn: () => turn([a.url, a.url], bodies, paths, headers) },
      { name: 'two', turn: () => turn([a.url, b.url], bodies, paths, headers) },
    ];
    const [one, two] = await sideBySide(ways, { turns: Math.ceil(seconds / TURN_S), warmUp: 1 }, (t) => t.perSecond);
    return {
      one: one!.figure.mean,
      two: two!.figure.mean,
      ratio: two!.ratio!,
      failures: [...one!.turns, ...two!.turns].reduce((n, t) => n + t.failures, 0),
    };
  } finally {
    await here.stopAll();
    cluster.stop();
  }
}

/** Its table, and its target: two instances at least 1.3 times one's throughput (median of the per-turn ratios). */
export function twoInstancesText(result: TwoInstancesResult | undefined): { lines: string[]; targets: string[] } {
  const two = result ? ratioText(result.ratio) : '';
  return {
    lines: markdownTable(
      'createPayout on one PostgreSQL server, 32 clients in two groups of 16 | One instance, per second | Two instances, per second | Two / one, per turn: median (p10–p90) | Not 201',
      [
        result
          ? `both groups to instance A, or one group to A and one to B, taking turns | ${result.one.toFixed(0)} | ${result.two.toFixed(0)} | ${two} | ${result.failures}`
          : 'PostgreSQL is not installed here: not measured | | | |',
      ],
    ),
    targets: result
      ? [
          `- PostgreSQL, two sandbox instances against one: ${two} (target at least 1.3x, median of per-turn ratios): ${result.ratio.median >= 1.3 ? 'met' : 'missed'}`,
        ]
      : [],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, targets } = twoInstancesText(await twoInstances(Number(process.argv[2] ?? 6)));
  console.log([...lines, '', ...targets].join('\n'));
}
