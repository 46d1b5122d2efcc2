// The flows of `npm run sandbox:load`: each virtual client makes tenants and users and runs payouts, on-ramps,
// transfers and reads through the typed clients and the balancer, noting in the ledger what was acknowledged.
import { performance } from 'node:perf_hooks';
import { createBusinessClient, createV1Client } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createEventCatalog } from '../../src/sandbox/events/index.js';
import type { ReceiverBehaviour as Behaviour, EventReceiver as Receiver } from '../../src/testing/event-receiver.js';
import { examplePerson } from '../../src/testing/sandbox-users.js';
import { type createBalancer, lostToKill } from './load-cluster.js';
import { type Ledger, PAYOUT_RACE } from './load-evidence.js';

type Result = { data?: any; error?: any; response: Response };
class Unexpected extends Error {}

/** What every flow of one virtual client uses: its clients, and how it counts what the sandbox answered. */
interface FlowKit {
  common: { baseUrl: string; fetch: typeof fetch; retry: false; timeoutMs: number };
  control: ReturnType<typeof createSandboxClient>;
  ledger: Ledger;
  balancer: ReturnType<typeof createBalancer>;
  /** The call's data when it succeeded (and the record it created, in the ledger); else counted and thrown. */
  ok: <R extends Result>(
    operation: string,
    pending: Promise<R>,
    created?: { table: string; id: (data: any) => string },
  ) => Promise<NonNullable<R['data']>>;
  /** An acknowledged transition, for the checks. */
  moved: (table: string, id: string, status: string) => void;
}

interface LoadTenant {
  id: string;
  business: ReturnType<typeof createBusinessClient>;
  v1: ReturnType<typeof createV1Client>;
  register: string;
  lastWallet?: string;
  flows: number;
}

function flowKit(baseUrl: string, balancer: ReturnType<typeof createBalancer>, ledger: Ledger): FlowKit {
  const common = { baseUrl, fetch: balancer.fetch, retry: false as const, timeoutMs: 20_000 };
  const ok = async <R extends Result>(
    operation: string,
    pending: Promise<R>,
    created?: { table: string; id: (data: any) => string },
  ): Promise<NonNullable<R['data']>> => {
    const result = await pending;
    if (!result.response.ok) {
      balancer.tally(operation).errors++;
      ledger.unexpected.push(
        `${operation} answered ${result.response.status}: ${JSON.stringify(result.error).slice(0, 200)}`,
      );
      throw new Unexpected(operation);
    }
    if (created) ledger.created.set(created.id(result.data), created.table);
    return result.data;
  };
  const moved = (table: string, id: string, status: string) => ledger.states.set(id, { table, status });
  return { common, control: createSandboxClient(common), ledger, balancer, ok, moved };
}

/** A tenant with an endpoint for every documented event, failing ones and business webhooks. */
async function newTenant(kit: FlowKit, receivers: Record<Behaviour, Receiver>, client: number): Promise<LoadTenant> {
  const { common, control, ok } = kit;
  const t = await ok('createTenant', control.createTenant({ body: { name: `Load ${client}` } }), {
    table: 'tenants',
    id: (d) => d.clientId,
  });
  const v1 = createV1Client({ ...common, auth: { credentials: t.v1Credentials } });
  const business = createBusinessClient({ ...common, auth: { credentials: t.businessCredentials } });
  const endpoint = (name: string, triggerEvent: string, url: string) =>
    ok(
      'createIntegrationEndpoint',
      v1.createIntegrationEndpoint({
        body: { name, direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: triggerEvent as any },
      }),
      { table: 'integration_endpoints', id: (d) => d.id },
    );
  // A healthy endpoint for every documented event; a 500 for user.created; a dropped connection for
  // fiat.payout.completed; a healthy business webhook of process ramp, a 500 one of wallet_transfer.
  for (const event of createEventCatalog().documented())
    await endpoint(`ok-${event}`, event, `${receivers.healthy.url}/v1/${t.clientId}/${event}`);
  await endpoint('fails-user.created', 'user.created', `${receivers.error500.url}/v1/${t.clientId}/user.created`);
  await endpoint(
    'drops-fiat.payout.completed',
    'fiat.payout.completed',
    `${receivers.drop.url}/v1/${t.clientId}/fiat.payout.completed`,
  );
  const hook = (url: string, process: string) =>
    ok(
      'createBusinessWebhook',
      control.createBusinessWebhook({ body: { clientId: t.clientId, url, process: process as any } }),
      { table: 'business_webhooks', id: (d) => d.id },
    );
  await hook(`${receivers.healthy.url}/business/${t.clientId}/ramp`, 'ramp');
  await hook(`${receivers.error500.url}/business/${t.clientId}/wallet_transfer`, 'wallet_transfer');
  return { id: t.clientId, business, v1, register: t.integrationRegister, flows: 0 };
}

/** A user of `t` registered, approved, with a custody wallet, an accepted bank account and funds. */
async function fundedUser(
  kit: FlowKit,
  t: LoadTenant,
): Promise<{ userId: string; wallet: { id: string }; account: { accountId: string } }> {
  const { control, ok, moved, ledger } = kit;
  const clientId = t.id;
  const registered = await ok(
    'registerUser',
    t.v1.registerUser({ params: { header: { 'x-integration-register': t.register } }, body: examplePerson() as any }),
    { table: 'users', id: (d) => d.user_id },
  );
  const userId: string = registered.user_id;
  await ok('approveUser', control.approveUser({ params: { path: { userId } } }));
  moved('users', userId, 'approved');
  const wallet = await ok(
    'createCustodyWallet',
    t.business.createCustodyWallet({ params: { path: { clientId, userId } }, body: { token: 'USDC' } }),
    { table: 'custody_wallets', id: (d) => d.id },
  );
  const account = await ok('createBankAccount', control.createBankAccount({ body: { clientId, userId } }), {
    table: 'bank_accounts',
    id: (d) => d.accountId,
  });
  await ok('acceptBankAccount', control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
  moved('bank_accounts', account.accountId, 'accepted');
  const funding = { known: 0, lost: 0 };
  ledger.funded.set(userId, funding);
  try {
    await ok(
      'fundUser',
      control.fundUser({ params: { path: { userId } }, body: { amount: 1_000_000, currency: 'COP' } }),
    );
    funding.known += 1_000_000;
  } catch (error) {
    if (lostToKill(error)) funding.lost += 1_000_000;
    throw error;
  }
  return { userId, wallet, account };
}

/** Payouts (completed, rejected, racing for the balance, overdrawing) and on-ramps (paid, INVERSE) of a funded user. */
async function payoutsAndOnRamps(
  kit: FlowKit,
  t: LoadTenant,
  userId: string,
  account: { accountId: string },
): Promise<void> {
  const { control, ok, moved, ledger, balancer } = kit;
  const payout = (amount: number) =>
    t.v1.createPayout({
      params: { path: { user_id: userId } },
      body: { amount, currency: 'COP', destinationId: account.accountId, paymentMethod: 'ACH' },
    });
  const paid = await ok('createPayout', payout(300_000), { table: 'payouts', id: (d) => d.id });
  await ok('completePayout', control.completePayout({ params: { path: { payoutId: paid.id } } }));
  moved('payouts', paid.id, 'COMPLETED');
  const refunded = await ok('createPayout', payout(200_000), { table: 'payouts', id: (d) => d.id });
  await ok('rejectPayout', control.rejectPayout({ params: { path: { payoutId: refunded.id } } }));
  moved('payouts', refunded.id, 'REJECTED');
  const external = await ok('createExternalWallet', control.createExternalWallet({ body: { userId } }), {
    table: 'external_wallets',
    id: (d) => d.externalWalletId,
  });
  const onRamp = (amount: number, inverse: boolean) =>
    t.v1.createOnRamp({
      params: { path: { user_id: userId } },
      body: {
        amount,
        paymentMethod: 'NEQUI',
        phone: '+573104567890',
        destination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId },
        ...(inverse ? { executionMode: 'INVERSE' as const } : {}),
      },
    });
  const normal = await ok('createOnRamp', onRamp(400_000, false), { table: 'on_ramps', id: (d) => d.operation.id });
  await ok('payOnRamp', control.payOnRamp({ params: { path: { operationId: normal.operation.id } } }));
  moved('on_ramps', normal.operation.id, 'COMPLETED');
  const inverse = await ok('createOnRamp', onRamp(200_000, true), { table: 'on_ramps', id: (d) => d.operation.id });
  moved('on_ramps', inverse.operation.id, 'COMPLETED');
  // Left: 1,000,000 - 300,000 - 200,000 (inverse) = 500,000 COP. Payouts race for it across both instances.
  const left = 500_000;
  const race = await Promise.allSettled(Array.from({ length: PAYOUT_RACE.payouts }, () => payout(PAYOUT_RACE.amount)));
  let accepted = 0;
  for (const r of race) {
    if (r.status === 'rejected') throw r.reason;
    if (r.value.response.status === 201) {
      accepted++;
      ledger.created.set(r.value.data!.id, 'payouts');
    } else if (r.value.response.status === 400) balancer.tally('createPayout').refused++;
    else await ok('createPayout', Promise.resolve(r.value));
  }
  ledger.races.raced++;
  if (accepted > Math.floor(left / PAYOUT_RACE.amount)) ledger.races.overAccepted++;
  const overdraw = await payout(10_000_000);
  if (overdraw.response.status === 400) balancer.tally('createPayout').refused++;
  else await ok('createPayout', Promise.resolve(overdraw));
}

/** A balance read, wallet transfers to the tenant's previous user (completed, cancelled) and list reads. */
async function transfersAndReads(kit: FlowKit, t: LoadTenant, userId: string, wallet: { id: string }): Promise<void> {
  const { control, ok, moved } = kit;
  const clientId = t.id;
  await ok(
    'getCustodyWalletBalance',
    t.business.getCustodyWalletBalance({ params: { path: { clientId, userId, walletId: wallet.id } } }),
  );
  if (t.lastWallet) {
    const transfer = async (amount: number): Promise<{ id: string }> =>
      ok(
        'createWalletTransfer',
        t.business.createWalletTransfer({
          params: { path: { clientId, userId } },
          body: { walletOriginId: wallet.id, walletDestinationId: t.lastWallet!, amount } as any,
        }),
        { table: 'wallet_transfers', id: (d) => d.id },
      ) as Promise<{ id: string }>;
    const sent = await transfer(30);
    await ok('completeWalletTransfer', control.completeWalletTransfer({ params: { path: { transferId: sent.id } } }));
    moved('wallet_transfers', sent.id, 'completed');
    const back = await transfer(20);
    await ok('cancelWalletTransfer', control.cancelWalletTransfer({ params: { path: { transferId: back.id } } }));
    moved('wallet_transfers', back.id, 'cancelled');
    await ok('listWalletTransfers', t.business.listWalletTransfers({ params: { path: { clientId, userId } } }));
  }
  await ok('listBankAccounts', t.business.listBankAccounts({ params: { path: { clientId } } }));
  t.lastWallet = wallet.id;
}

export async function runFlows(
  baseUrl: string,
  balancer: ReturnType<typeof createBalancer>,
  receivers: Record<Behaviour, Receiver>,
  ledger: Ledger,
  client: number,
  until: number,
) {
  const kit = flowKit(baseUrl, balancer, ledger);
  let completed = 0;
  let interrupted = 0;
  let tenant: LoadTenant | null = null;
  async function flow() {
    if (!tenant || tenant.flows >= 3) tenant = await newTenant(kit, receivers, client);
    const t = tenant;
    t.flows++;
    const { userId, wallet, account } = await fundedUser(kit, t);
    await payoutsAndOnRamps(kit, t, userId, account);
    await transfersAndReads(kit, t, userId, wallet);
  }

  while (performance.now() < until) {
    try {
      await flow();
      completed++;
    } catch (error) {
      interrupted++;
      tenant = null; // its setup or its last user may be half done: start afresh
      if (!lostToKill(error) && !(error instanceof Unexpected))
        ledger.unexpected.push(`flow of client ${client}: ${(error as Error).message}`);
    }
  }
  return { completed, interrupted };
}
