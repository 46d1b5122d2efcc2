// The same sandbox on PostgreSQL (the run's throwaway cluster, scripts/test-setup/postgres.ts): what only a
// server shows: connections ended under the sandbox, concurrent debits, and two instances sharing one queue.

import { createServer as createHttpServer } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { captureLogger } from '../../testing/capture-logger.js';
import { sandboxInTest, storeNamed, useSandbox } from '../../testing/sandbox-fixture.js';
import { fundedExampleUser } from '../../testing/sandbox-users.js';

const postgres = storeNamed('PostgreSQL');

describe.skipIf(!postgres)('the sandbox on PostgreSQL', () => {
  const logger = captureLogger();
  const sandbox = useSandbox({ store: postgres, logger });

  async function terminateOtherBackends(): Promise<void> {
    const client = new pg.Client({ connectionString: sandbox.databaseUrl! });
    await client.connect();
    try {
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = $1",
        [new URL(sandbox.databaseUrl!).pathname.slice(1)],
      );
    } finally {
      await client.end();
    }
  }

  it('survives PostgreSQL ending its connections (a restart, a failover): no crash, and the next request is served', async () => {
    const unexpected: unknown[] = [];
    const onError = (error: unknown) => unexpected.push(error);
    process.on('uncaughtException', onError);
    try {
      expect((await fetch(`${sandbox.url}/api/parameters/banks`)).status).toBe(200);
      // What a restart does to the sandbox's idle pooled connections (this database's only: other files run beside).
      await terminateOtherBackends();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const control = createSandboxClient({ baseUrl: sandbox.url });
      expect((await control.createTenant({ body: {} })).response.status).toBe(201);
      expect(unexpected).toEqual([]);
      // An ended connection is said on the sandbox's log rather than as a crash: as an idle connection the pool
      // lost, or by the scheduled outcomes' pass whose read met it. A select under way on one (the delivery
      // worker's poll) is tried again on another without a word, so how many lines there are depends on what was
      // running when the connections ended.
      const expected =
        /^\[sandbox\] (PostgreSQL closed an idle connection \(57P01\)|scheduled outcomes \(retrying every pass\): terminating connection|scheduled outcomes: the database answers again\.)/;
      expect(logger.lines.filter((line) => !expected.test(line))).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
    }
  }, 30_000);

  it('runs a payout flow, and concurrent payouts never overdraw the balance', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
    const { userId, accountId } = await fundedExampleUser(sandbox.url, tenant, 1000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 100, currency: 'COP', destinationId: accountId },
        }),
      ),
    );
    const statuses = results.map((r) => r.response.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1, currency: 'COP' } })),
    ).toMatchObject({ balance: 1 });
    expect(sandbox.violations).toEqual([]);
  }, 60_000);

  it('two sandbox instances on one database share the delivery queue: every event delivered exactly once', async () => {
    const seen: string[] = [];
    const receiver = createHttpServer((req, res) => {
      let text = '';
      req
        .on('data', (c) => (text += c))
        .on('end', () => {
          seen.push((JSON.parse(text) as { id: string }).id);
          res.writeHead(200).end();
        });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const other = await sandboxInTest({ shareWith: sandbox });
    try {
      const control = createSandboxClient({ baseUrl: sandbox.url });
      const tenant = await orThrow(control.createTenant({ body: {} }));
      const v1 = createV1Client({ baseUrl: other.url, auth: { credentials: tenant.v1Credentials }, retry: false });
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/user.updated`;
      await orThrow(
        v1.createIntegrationEndpoint({
          body: { name: 'shared', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'user.updated' },
        }),
      );
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          orThrow(
            createSandboxClient({ baseUrl: i % 2 ? other.url : sandbox.url }).triggerEvent({
              body: { tenantId: tenant.clientId, event: 'user.updated' },
            }),
          ),
        ),
      );
      for (let i = 0; i < 200 && seen.length < 60; i++) await new Promise((r) => setTimeout(r, 25));
      await Promise.all([sandbox.events.worker.idle(), other.events.worker.idle()]);
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
      const { deliveries } = await orThrow(control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }));
      expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual(
        Array.from({ length: 60 }, () => ['delivered', 1]),
      );
    } finally {
      receiver.close();
    }
  }, 60_000);
});
