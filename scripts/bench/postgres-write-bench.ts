// Two sandbox instances on one PostgreSQL server against one: createPayout from 32 clients, as two groups of 16
// (each group paying out from a user of its own, so the groups do not queue on one balance row), sent either
// both to instance A or one group to A and one to B. The two ways take turns; the ratio of the requests per
// second of both groups together is taken in each turn.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { v1Operations } from '../../src/client/generated/v1-meta.js';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createDatabase, postgresUnavailable, startPostgres } from '../../src/testing/postgres.js';
import { launchSandbox } from '../../src/testing/sandbox-process.js';
import { fundedExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';
import { percentile } from './percentile.js';

export interface TwoInstancesResult {
  one: number;
  two: number;
  /** Two instances' requests per second over one's, per turn: median, 10th and 90th percentile. */
  ratio: { median: number; p10: number; p90: number };
  failures: number;
}

const TURN_S = 1;

/** Both groups at once for one turn; requests per second of the two together, and the answers that were not 201. */
async function turn(
  urls: [string, string],
  bodies: [string, string],
  paths: [string, string],
  headers: Record<string, string>,
) {
  let failures = 0;
  const started = performance.now();
  const results = await Promise.all(
    urls.map((url, i) =>
      autocannon({ url: url + paths[i]!, method: 'POST', headers, body: bodies[i], connections: 16, duration: TURN_S }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const r of results) failures += r.non2xx + r.errors;
  return { perSecond: results.reduce((n, r) => n + r.requests.total, 0) / seconds, failures };
}

/** Undefined when PostgreSQL is not installed here. */
export async function twoInstances(seconds = 6): Promise<TwoInstancesResult | undefined> {
  if (postgresUnavailable()) return undefined;
  const cluster = await startPostgres();
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const databaseUrl = await createDatabase(cluster.url, 'writebench');
    const [a, b] = [
      await launchSandbox(['--database-url', databaseUrl]),
      await launchSandbox(['--database-url', databaseUrl]),
    ];
    for (const s of [a, b])
      stops.push(() => {
        s.child.kill('SIGTERM');
        return s.exit;
      });
    const control = createSandboxClient({ baseUrl: a.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Two instances' } }));
    const users = [await fundedExampleUser(a.url, tenant, 1e12), await fundedExampleUser(a.url, tenant, 1e12)] as const;
    // A v1 token is the tenant's on every instance of the database.
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${await sandboxToken(a.url, 'v1', tenant.v1Credentials)}`,
    };
    const paths = users.map((u) => v1Operations.createPayout.path.replace('{user_id}', u.userId)) as [string, string];
    const bodies = users.map((u) =>
      JSON.stringify({ amount: 1, currency: 'COP', destinationId: u.accountId, paymentMethod: 'ACH' }),
    ) as [string, string];
    const ways = { one: [a.url, a.url] as [string, string], two: [a.url, b.url] as [string, string] };
    await turn(ways.one, bodies, paths, headers);
    await turn(ways.two, bodies, paths, headers);
    const tallies = { one: [] as number[], two: [] as number[] };
    let failures = 0;
    for (let done = 0; done < seconds; done += TURN_S) {
      for (const way of done % (2 * TURN_S) ? (['two', 'one'] as const) : (['one', 'two'] as const)) {
        const result = await turn(ways[way], bodies, paths, headers);
        tallies[way].push(result.perSecond);
        failures += result.failures;
      }
    }
    const ratios = tallies.two.map((two, i) => two / tallies.one[i]!).sort((x, y) => x - y);
    const mean = (values: number[]) => values.reduce((n, v) => n + v, 0) / values.length;
    return {
      one: mean(tallies.one),
      two: mean(tallies.two),
      ratio: { median: percentile(ratios, 0.5), p10: percentile(ratios, 0.1), p90: percentile(ratios, 0.9) },
      failures,
    };
  } finally {
    await Promise.all(stops.map((stop) => stop()));
    cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await twoInstances(Number(process.argv[2] ?? 6)));
