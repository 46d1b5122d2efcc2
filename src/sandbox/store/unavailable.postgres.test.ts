// A database that is down or restarting: every operation of the three bundles (derived from them) answers the
// documented 503 with Retry-After, never a 500, and the sandbox recovers by itself when the server is back, with
// nothing lost. In `npm run test:postgres`, on a throwaway PostgreSQL cluster of its own (not the run's, which
// other files use), stopped and started again; skipped where Debian's `postgresql` is not installed (under CI that
// is a failure, as for the other PostgreSQL suites).

import { listOperations } from 'ramp-api/lookup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { captureLogger } from '../../testing/capture-logger.js';
import { createDatabase, type PostgresCluster, postgresUnavailable, startPostgres } from '../../testing/postgres.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { exampleRequestValues, operationTarget, type RequestValues } from '../../testing/sandbox-users.js';
import { until } from '../../testing/until.js';
import { readBundleFile } from '../contract/document.js';
import { bodyExamples } from '../contract/lookup.js';
import { SANDBOX_FAMILIES } from '../server.js';

const why = postgresUnavailable();
if (why && process.env.CI) throw new Error(`The database-outage test needs PostgreSQL under CI, but ${why}.`);

describe.skipIf(!!why)('a database that is down or restarting', () => {
  let cluster: PostgresCluster;
  let records: Record<string, string>;
  let tokens: RequestValues['tokens'];
  // What the outage makes the sandbox say, kept for the assertions instead of printed.
  const logger = captureLogger();

  // A cluster of its own, which the test stops and starts again; stopped after the sandbox (hooks run in reverse).
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.stop());
  const sandbox = useSandbox({
    logger,
    store: { name: 'PostgreSQL', options: async () => ({ databaseUrl: await createDatabase(cluster.url, 'outage') }) },
  });
  beforeAll(async () => {
    ({ tokens, records } = await exampleRequestValues(sandbox.url, 'Outage'));
  }, 60_000);

  it('every operation answers 503 with Retry-After while it is stopped, and the sandbox recovers by itself when it is back', async () => {
    const before = await fetch(`${sandbox.url}/api/b2b2b/${records.clientId}/users`, {
      headers: { authorization: `Bearer ${tokens.business}` },
    });
    expect(before.status).toBe(200);
    const usersBefore = await before.text();

    cluster.pause();
    let sent = 0;
    for (const family of SANDBOX_FAMILIES) {
      const doc = readBundleFile(family);
      for (const entry of listOperations(doc)) {
        const { path, headers } = operationTarget({ tokens, records }, family, entry);
        const example = bodyExamples(doc, entry)[0]?.[1];
        if (entry.operation.requestBody) headers['content-type'] = 'application/json';
        const response = await fetch(`${sandbox.url}${path}`, {
          method: entry.method.toUpperCase(),
          headers,
          body: entry.operation.requestBody ? JSON.stringify(example ?? {}) : undefined,
        });
        const body = (await response.json()) as { error?: string };
        expect([response.status, body.error], `${family} ${entry.operationId}: ${JSON.stringify(body)}`).toEqual([
          503,
          'unavailable',
        ]);
        expect(response.headers.get('retry-after'), entry.operationId).toBe('2');
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(40);
    expect(sandbox.violations).toEqual([]);
    // Each refused call is on the sandbox's log, naming its operation and the database's state.
    expect(
      logger.lines.filter((line) => /^\[sandbox\] \w+: the database is unavailable \(.+\)$/.test(line)).length,
    ).toBe(sent);

    cluster.resume();
    // No restart of the sandbox: its next calls open fresh connections.
    const users = () =>
      fetch(`${sandbox.url}/api/b2b2b/${records.clientId}/users`, {
        headers: { authorization: `Bearer ${tokens.business}` },
      });
    await until(
      async () => (await users()).status === 200,
      'the sandbox to answer again after PostgreSQL came back',
      15_000,
    );
    expect(await (await users()).text(), 'the users registered before the outage are all there').toBe(usersBefore);
    const control = createSandboxClient({ baseUrl: sandbox.url });
    await orThrow(control.approveUser({ params: { path: { userId: records.userId! } } }));
    expect(sandbox.violations).toEqual([]);
  }, 120_000);
});
