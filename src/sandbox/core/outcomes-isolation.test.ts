// One tenant's state never stops another's delayed trigger outcomes, nor the control API: tenant A, past its
// quota and the outcomes' allowance, has an outcome due together with tenants B's and C's. The pass that runs them
// (advanceClock's, and the timer's as real time passes) runs B's and C's, refuses A's alone (A's record stays as it
// was, nothing of it is stored), and answers; the next passes are not stuck on A. A tenant at its quota, within
// the allowance, still has its outcome run: it had room when it scheduled it.

import { USER_REJECTED_LATER } from 'ramp-api/triggers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { orThrow } from '../../client/index.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { forEachStore, type TestSandbox, useSandbox } from '../../testing/sandbox-fixture.js';
import { registerExampleUser } from '../../testing/sandbox-users.js';
import { OUTCOME_ALLOWANCE, TENANT_QUOTA } from '../store/quotas.js';

/** Seconds past every `_LATER` value's delay. */
const PAST_THE_DELAY = 24 * 3600;

/**
 * Three tenants, each with a user rejected later, the first holding `full` records (past its quota and the
 * outcomes' allowance unless told); `status(i)` reads the i-th tenant's user's status.
 */
async function threeTenants(
  sandbox: TestSandbox,
  control: SandboxClient,
  full = TENANT_QUOTA.records + OUTCOME_ALLOWANCE.records,
) {
  const tenants = await Promise.all(
    ['A (full)', 'B', 'C'].map((name) => orThrow(control.createTenant({ body: { name: `Isolation ${name}` } }))),
  );
  const users: string[] = [];
  for (const tenant of tenants)
    users.push(await registerExampleUser(sandbox.url, tenant, { identity_verification_result: USER_REJECTED_LATER }));
  // Tenant A fills its quota: its next record is refused at commit.
  await sandbox.db.query('update tenants set records = $1 where id = $2', [full, tenants[0]!.clientId]);
  const status = async (i: number) => {
    const state = await orThrow(control.getTenantState({ params: { path: { tenantId: tenants[i]!.clientId } } }));
    return state.users.find((u) => u.userId === users[i])?.status;
  };
  return { tenants, status };
}

forEachStore('one full tenant and the delayed outcomes of the others', (store) => {
  const running = useSandbox({ store });
  let control: SandboxClient;
  beforeAll(() => {
    control = createSandboxClient({ baseUrl: running.url });
  });

  it('advanceClock runs the other tenants’ outcomes, refuses the full tenant’s alone, and answers every time', async () => {
    const { status } = await threeTenants(running, control);
    const advanced = await control.advanceClock({ body: { seconds: PAST_THE_DELAY } });
    expect(advanced.response.status, JSON.stringify(advanced.error)).toBe(200);
    expect([await status(0), await status(1), await status(2)]).toEqual(['pending', 'rejected', 'rejected']);
    // The full tenant's outcome is not tried again on every pass: the next advance answers too.
    expect((await control.advanceClock({ body: { seconds: 1 } })).response.status).toBe(200);
    expect(await running.outcomes.kick()).toBe(0);
  });

  it('runs the outcome of a tenant at its quota, within the allowance, and still refuses its own writes', async () => {
    const { tenants, status } = await threeTenants(running, control, TENANT_QUOTA.records);
    expect((await control.advanceClock({ body: { seconds: PAST_THE_DELAY } })).response.status).toBe(200);
    expect([await status(0), await status(1), await status(2)]).toEqual(['rejected', 'rejected', 'rejected']);
    const own = await control.createTenant({ body: { name: 'unused' } });
    expect(own.response.status).toBe(201);
    const refused = await registerExampleUser(running.url, tenants[0]!).catch((error: Error) => error.message);
    expect(refused).toMatch(/HTTP 403.*quota_exceeded/s);
  });

  describe('as real time passes', () => {
    let realNow = Date.now();
    const still = useSandbox({ store, realNow: () => realNow });

    it('the timer’s pass runs the other tenants’ outcomes and is not stuck on the full one', async () => {
      const own = createSandboxClient({ baseUrl: still.url });
      const { status } = await threeTenants(still, own);
      realNow += PAST_THE_DELAY * 1000;
      await vi.waitFor(async () => expect([await status(1), await status(2)]).toEqual(['rejected', 'rejected']), {
        timeout: 10_000,
        interval: 50,
      });
      expect(await status(0)).toBe('pending');
      await expect(still.outcomes.kick()).resolves.toBe(0);
    });
  });
});
