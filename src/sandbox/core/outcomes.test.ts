// Delayed trigger values (`_LATER`, `delaySeconds` in x-sandbox-triggers): the record is answered in its usual
// state and stays in it until sandbox time passes the delay; then the outcome runs, with its events, through the
// control operation's own path, with no control call forcing it: in the advanceClock call that passes it, or on
// the sandbox's timer when real time passes it. Once, also with two instances on one PostgreSQL database, and not
// at all for a record decided meanwhile.

import {
  BANK_ACCOUNT_REJECTED_LATER,
  KYC_FAILED_LATER,
  PAYIN_REJECTED_LATER,
  PAYOUT_REJECTED_LATER,
  sandboxTriggers,
  TRANSFER_CANCELLED_LATER,
  USER_REJECTED_LATER,
} from 'ramp-api/triggers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createBusinessClient, createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import {
  forEachStore,
  onPostgreSQL,
  sandboxInTest,
  type TestSandbox,
  useSandbox,
} from '../../testing/sandbox-fixture.js';
import { fundedExampleUser, registerExampleUser } from '../../testing/sandbox-users.js';

/** The one delay the `_LATER` values declare, in seconds. */
function declaredDelay(): number {
  const delays = new Set(sandboxTriggers.flatMap((t): number[] => ('delaySeconds' in t ? [t.delaySeconds] : [])));
  expect(delays.size).toBe(1);
  return [...delays][0]!;
}

async function tenantWorld(sandbox: TestSandbox, control: SandboxClient) {
  const tenant = await orThrow(control.createTenant({ body: { name: 'Delayed triggers' } }));
  const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
  const business = createBusinessClient({
    baseUrl: sandbox.url,
    auth: { credentials: tenant.businessCredentials },
    retry: false,
  });
  const state = () => orThrow(control.getTenantState({ params: { path: { tenantId: tenant.clientId } } }));
  const events = async () =>
    (await orThrow(control.listEvents({ params: { query: { tenant: tenant.clientId } } }))).events.map((e) => e.event);
  return { tenant, v1, business, state, events };
}
type World = Awaited<ReturnType<typeof tenantWorld>>;

/** Each delayed value: what makes the record with it, and how its state reads. */
const cases: {
  name: string;
  make(w: World, sandbox: TestSandbox, control: SandboxClient): Promise<() => Promise<string | undefined>>;
  before: string;
  after: string;
  events: string[];
}[] = [
  {
    name: 'USER_REJECTED_LATER',
    before: 'pending',
    after: 'rejected',
    events: ['user.canceled'],
    async make(w, sandbox) {
      const userId = await registerExampleUser(sandbox.url, w.tenant, {
        identity_verification_result: USER_REJECTED_LATER,
      });
      return async () => (await w.state()).users.find((u) => u.userId === userId)?.status;
    },
  },
  {
    name: 'KYC_FAILED_LATER',
    before: 'pending',
    after: 'rejected',
    events: ['user.canceled'],
    async make(w, sandbox) {
      const userId = await registerExampleUser(sandbox.url, w.tenant);
      await orThrow(
        w.v1.generateKycUrl({ params: { path: { user_id: userId }, query: { template_id: KYC_FAILED_LATER } } }),
      );
      return async () => (await w.state()).users.find((u) => u.userId === userId)?.status;
    },
  },
  {
    name: 'BANK_ACCOUNT_REJECTED_LATER',
    before: 'in_review',
    after: 'rejected',
    events: [],
    async make(w, sandbox, control) {
      const userId = await registerExampleUser(sandbox.url, w.tenant);
      const { accountId } = await orThrow(
        control.createBankAccount({
          body: { clientId: w.tenant.clientId, userId, accountNickname: BANK_ACCOUNT_REJECTED_LATER },
        }),
      );
      return async () => (await w.state()).bankAccounts.find((a) => a.accountId === accountId)?.status;
    },
  },
  {
    name: 'PAYOUT_REJECTED_LATER',
    before: 'PENDING',
    after: 'REJECTED',
    events: ['fiat.payout.rejected'],
    async make(w, sandbox) {
      const { userId, accountId } = await fundedExampleUser(sandbox.url, w.tenant, 1000);
      const payout = await orThrow(
        w.v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 600, currency: 'COP', destinationId: accountId, paymentMethod: PAYOUT_REJECTED_LATER },
        }),
      );
      return async () => (await w.state()).payouts.find((p) => p.id === payout.id)?.status;
    },
  },
  {
    name: 'PAYIN_REJECTED_LATER',
    before: 'PENDING_DEPOSIT',
    after: 'REJECTED',
    events: ['fiat.payin.rejected', 'operation.status_updated'],
    async make(w, sandbox, control) {
      const userId = await registerExampleUser(sandbox.url, w.tenant);
      await orThrow(control.approveUser({ params: { path: { userId } } }));
      const wallet = await orThrow(control.createExternalWallet({ body: { userId } }));
      const made = await orThrow(
        w.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: {
            amount: 200_000 + PAYIN_REJECTED_LATER,
            destination: { type: 'EXTERNAL', externalWalletId: wallet.externalWalletId },
          } as any,
        }),
      );
      const id = (made as { operation: { id: string } }).operation.id;
      return async () => (await w.state()).onRamps.find((o) => o.id === id)?.status;
    },
  },
  {
    name: 'TRANSFER_CANCELLED_LATER',
    before: 'pending',
    after: 'cancelled',
    events: ['operation.transfer.status_updated'],
    async make(w, sandbox, control) {
      const userId = await registerExampleUser(sandbox.url, w.tenant);
      await orThrow(control.approveUser({ params: { path: { userId } } }));
      const path = { clientId: w.tenant.clientId, userId };
      const open = () => orThrow(w.business.createCustodyWallet({ params: { path }, body: { token: 'USDC' } }));
      const [from, to] = [await open(), await open()];
      await orThrow(control.fundWallet({ params: { path: { walletId: from.id } }, body: { amount: 100 } }));
      const transfer = (await orThrow(
        w.business.createWalletTransfer({
          params: { path },
          body: { walletOriginId: from.id, walletDestinationId: to.id, amount: 5 + TRANSFER_CANCELLED_LATER },
        }),
      )) as { id: string };
      return async () => (await w.state()).transfers.find((t) => t.id === transfer.id)?.status;
    },
  },
];

forEachStore('delayed trigger values', (store) => {
  const running = useSandbox({ store });
  let control: SandboxClient;
  beforeAll(() => {
    control = createSandboxClient({ baseUrl: running.url });
  });

  for (const c of cases)
    it(`${c.name}: ${c.before} until the delay has passed in sandbox time, then ${c.after} with its events`, async () => {
      const delay = declaredDelay();
      const w = await tenantWorld(running, control);
      const status = await c.make(w, running, control);
      expect(await status()).toBe(c.before);
      const eventsBefore = await w.events();
      await orThrow(control.advanceClock({ body: { seconds: delay - 1 } }));
      expect(await status()).toBe(c.before);
      expect(await w.events()).toEqual(eventsBefore);
      await orThrow(control.advanceClock({ body: { seconds: 2 } }));
      expect(await status()).toBe(c.after);
      expect((await w.events()).slice(eventsBefore.length)).toEqual(c.events);
      // Once: sandbox time moving on does not run it again.
      await orThrow(control.advanceClock({ body: { seconds: delay } }));
      expect((await w.events()).slice(eventsBefore.length)).toEqual(c.events);
    });

  describe('as real time passes, without advanceClock', () => {
    // The sandbox's real clock, moved by the test: sandbox time passes as real time would.
    let realNow = Date.now();
    const still = useSandbox({ store, realNow: () => realNow });

    it('PAYOUT_REJECTED_LATER: the payout is rejected by itself once sandbox time passes its due time', async () => {
      const own = createSandboxClient({ baseUrl: still.url });
      const w = await tenantWorld(still, own);
      const payoutCase = cases.find((c) => c.name === 'PAYOUT_REJECTED_LATER')!;
      const status = await payoutCase.make(w, still, own);
      const eventsBefore = await w.events();
      realNow += (declaredDelay() - 1) * 1000;
      expect(await still.outcomes.kick()).toBe(0);
      expect(await status()).toBe(payoutCase.before);
      realNow += 2000;
      await vi.waitFor(async () => expect(await status()).toBe(payoutCase.after), { timeout: 10_000, interval: 50 });
      expect((await w.events()).slice(eventsBefore.length)).toEqual(payoutCase.events);
      expect(await still.outcomes.kick()).toBe(0);
    });
  });

  it('leaves a record decided meanwhile as it was: a payout completed by hand is not rejected later', async () => {
    const w = await tenantWorld(running, control);
    const { userId, accountId } = await fundedExampleUser(running.url, w.tenant, 1000);
    const payout = await orThrow(
      w.v1.createPayout({
        params: { path: { user_id: userId } },
        body: { amount: 600, currency: 'COP', destinationId: accountId, paymentMethod: PAYOUT_REJECTED_LATER },
      }),
    );
    await orThrow(control.completePayout({ params: { path: { payoutId: payout.id } } }));
    const eventsBefore = await w.events();
    await orThrow(control.advanceClock({ body: { seconds: declaredDelay() + 1 } }));
    expect((await w.state()).payouts.find((p) => p.id === payout.id)?.status).toBe('COMPLETED');
    expect(await w.events()).toEqual(eventsBefore);
    expect((await w.state()).balances.find((b) => b.userId === userId && b.currency === 'COP')?.balance).toBe(400);
  });
});

onPostgreSQL('delayed trigger values on two instances of one PostgreSQL database', (postgres) => {
  it('run once when both advance the clock past them at the same time', async () => {
    const first = await sandboxInTest({ store: postgres });
    const second = await sandboxInTest({ shareWith: first });
    const control = createSandboxClient({ baseUrl: first.url });
    const other = createSandboxClient({ baseUrl: second.url });
    const w = await tenantWorld(first, control);
    const { userId, accountId } = await fundedExampleUser(first.url, w.tenant, 10_000);
    for (let i = 0; i < 5; i++)
      await orThrow(
        w.v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 600, currency: 'COP', destinationId: accountId, paymentMethod: PAYOUT_REJECTED_LATER },
        }),
      );
    const seconds = declaredDelay() + 1;
    await Promise.all([
      orThrow(control.advanceClock({ body: { seconds } })),
      orThrow(other.advanceClock({ body: { seconds } })),
    ]);
    expect((await w.events()).filter((e) => e === 'fiat.payout.rejected')).toHaveLength(5);
    expect((await w.state()).payouts.map((p) => p.status)).toEqual(Array(5).fill('REJECTED'));
    expect((await w.state()).balances.find((b) => b.userId === userId && b.currency === 'COP')?.balance).toBe(10_000);
  });

  it('run once when the timers of both instances pass them as real time moves', async () => {
    let realNow = Date.now();
    const first = await sandboxInTest({ store: postgres, realNow: () => realNow });
    const second = await sandboxInTest({ shareWith: first, realNow: () => realNow });
    const control = createSandboxClient({ baseUrl: first.url });
    const w = await tenantWorld(first, control);
    const { userId, accountId } = await fundedExampleUser(first.url, w.tenant, 10_000);
    for (let i = 0; i < 5; i++)
      await orThrow(
        w.v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 600, currency: 'COP', destinationId: accountId, paymentMethod: PAYOUT_REJECTED_LATER },
        }),
      );
    realNow += (declaredDelay() + 1) * 1000;
    await vi.waitFor(
      async () => expect((await w.state()).payouts.map((p) => p.status)).toEqual(Array(5).fill('REJECTED')),
      { timeout: 10_000, interval: 50 },
    );
    expect(await Promise.all([first.outcomes.kick(), second.outcomes.kick()])).toEqual([0, 0]);
    expect((await w.events()).filter((e) => e === 'fiat.payout.rejected')).toHaveLength(5);
    expect((await w.state()).balances.find((b) => b.userId === userId && b.currency === 'COP')?.balance).toBe(10_000);
  });
});
