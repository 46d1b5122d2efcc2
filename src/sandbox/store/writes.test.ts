// What a write promises, whatever makes it fast: a 201 is committed before it is sent (SIGKILL right after the
// answers loses none of them), concurrent payouts from one user never overdraw the balance, and a change, its
// event and its deliveries are written in one transaction (all of them or none).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { sandboxInTest, useSandbox } from '../../testing/sandbox-fixture.js';
import { launchSandbox, type SandboxProcess } from '../../testing/sandbox-process.js';
import { fundedExampleUser } from '../../testing/sandbox-users.js';

const CLIENTS = 32;
const work = mkdtempSync(join(tmpdir(), 'ramp-writes-'));
const processes: SandboxProcess[] = [];
afterAll(() => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** `count` createPayout calls at once for one user: the answers' statuses and the IDs of the 201s. */
async function payoutsAtOnce(
  url: string,
  tenant: { v1Credentials: unknown },
  user: { userId: string; accountId: string },
  count: number,
  amount: number,
) {
  const v1 = createV1Client({ baseUrl: url, auth: { credentials: tenant.v1Credentials as never } });
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      v1.createPayout({
        params: { path: { user_id: user.userId } },
        body: { amount, currency: 'COP', destinationId: user.accountId, paymentMethod: 'ACH' },
      }),
    ),
  );
  return {
    statuses: answers.map((a) => a.response.status),
    created: answers.flatMap((a) => (a.response.status === 201 && a.data ? [a.data.id] : [])),
  };
}

/** completePayout for each of `ids` at once: the answers' statuses. */
async function completeAtOnce(url: string, ids: string[]) {
  const control = createSandboxClient({ baseUrl: url });
  const answers = await Promise.all(ids.map((payoutId) => control.completePayout({ params: { path: { payoutId } } })));
  return answers.map((a) => a.response.status);
}

describe('writes', () => {
  it(`keeps every write answered to ${CLIENTS} concurrent clients when killed with SIGKILL right after: the payouts' completions and their events`, async () => {
    const data = join(work, 'killed');
    const first = await launchSandbox(['--data', data]);
    processes.push(first);
    const control = createSandboxClient({ baseUrl: first.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Killed' } }));
    const user = await fundedExampleUser(first.url, tenant, 1_000_000);
    const { created } = await payoutsAtOnce(first.url, tenant, user, CLIENTS, 1000);
    expect(created).toHaveLength(CLIENTS);
    const completed = await completeAtOnce(first.url, created);
    expect(completed).toEqual(created.map(() => 200));
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    // The folder read back by a sandbox in this process: what the killed one left on disk, read as a restarted
    // command would (startSandbox on the folder, taking over its lock), without a second process's start.
    const second = await sandboxInTest({ dataDir: data });
    const { events } = await orThrow(createSandboxClient({ baseUrl: second.url }).listEvents());
    const announced = new Set(events.filter((e) => e.event === 'fiat.payout.completed').map((e) => String(e.data.id)));
    expect(created.filter((id) => !announced.has(id))).toEqual([]);
  }, 120_000);

  describe('in memory', () => {
    // One sandbox for both: each test has a tenant of its own, and the second counts rows before and after.
    const sandbox = useSandbox();

    it(`never overdraws a balance under ${CLIENTS} concurrent payouts from one user; completing them at once writes one event and one delivery each`, async () => {
      const control = createSandboxClient({ baseUrl: sandbox.url });
      const tenant = await orThrow(control.createTenant({ body: { name: 'Racing' } }));
      const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
      await orThrow(
        v1.createIntegrationEndpoint({
          body: {
            name: 'payouts',
            direction: 'OUTBOUND',
            url: 'http://127.0.0.1:9/payouts',
            httpMethod: 'POST',
            triggerEvent: 'fiat.payout.completed',
          },
        }),
      );
      // The balance covers 10 of the 32 payouts.
      const user = await fundedExampleUser(sandbox.url, tenant, 10_000);
      const { statuses, created } = await payoutsAtOnce(sandbox.url, tenant, user, CLIENTS, 1000);
      expect(statuses.filter((s) => s !== 201 && s !== 400)).toEqual([]);
      expect(created).toHaveLength(10);
      const [balance] = await sandbox.db.query<{ amount: string }>(
        'select amount from balances where owner_id = $1 and currency = $2',
        [user.userId, 'COP'],
      );
      expect(Number(balance!.amount)).toBe(0);
      expect(await completeAtOnce(sandbox.url, created)).toEqual(created.map(() => 200));
      const written = await sandbox.db.query<{ id: string; events: string; deliveries: string }>(
        `select p.id, count(distinct e.id) as events, count(d.id) as deliveries
         from payouts p
         left join sandbox_events e on e.event = 'fiat.payout.completed' and e.payload->'data'->>'id' = p.id::text
         left join sandbox_deliveries d on d.event_id = e.id
        where p.user_id = $1 group by p.id`,
        [user.userId],
      );
      expect(written.map((w) => w.id).sort()).toEqual([...created].sort());
      expect(written.filter((w) => Number(w.events) !== 1 || Number(w.deliveries) !== 1)).toEqual([]);
    }, 60_000);

    it('writes a change, its event and its delivery in one transaction: a transaction that fails after them leaves none', async () => {
      const control = createSandboxClient({ baseUrl: sandbox.url });
      const tenant = await orThrow(control.createTenant({ body: { name: 'Rolled back' } }));
      const user = await fundedExampleUser(sandbox.url, tenant, 10_000);
      const count = async () =>
        (
          await sandbox.db.query<{ payouts: string; events: string; deliveries: string }>(
            `select (select count(*) from payouts) as payouts, (select count(*) from sandbox_events) as events,
                  (select count(*) from sandbox_deliveries) as deliveries`,
          )
        )[0];
      const before = await count();
      const failure = new Error('the work failed after its writes');
      await expect(
        sandbox.db.transaction(async (tx) => {
          await tx.query(
            `insert into payouts (id, tenant_id, user_id, account_id, amount, currency, payment_method, status, created_at)
           values (gen_random_uuid(), $1, $2, $3, 1, 'COP', 'ACH', 'PENDING', now())`,
            [tenant.clientId, user.userId, user.accountId],
          );
          const [event] = await tx.query<{ id: string }>(
            `insert into sandbox_events (id, tenant_id, event, payload, created_at)
           values (gen_random_uuid(), $1, 'fiat.payout.completed', '{}', now()) returning id`,
            [tenant.clientId],
          );
          await tx.query(
            `insert into sandbox_deliveries (id, event_id, tenant_id, endpoint_kind, endpoint_id, url, timeout_ms, retry_delays_ms, status, created_at)
           values (gen_random_uuid(), $1, $2, 'integration', gen_random_uuid(), 'http://127.0.0.1:9/', 1000, '[]', 'skipped', now())`,
            [event!.id, tenant.clientId],
          );
          expect(await tx.query('select 1 from sandbox_events where id = $1', [event!.id])).toHaveLength(1);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await count()).toEqual(before);
    });
  });
});
