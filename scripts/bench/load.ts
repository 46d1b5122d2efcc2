// The machinery of `npm run sandbox:load`: two sandbox processes on one PostgreSQL database,
// virtual clients running full flows through the typed clients, split across the two like a load balancer,
// healthy and failing webhook receivers, one instance SIGKILLed half-way; then the delivery queue is drained
// through the control API's clock and the outcome is checked straight in PostgreSQL and in the receivers'
// own logs. Loopback only; everything started here is stopped by `stopAll()` (also on failure).
//
// What "ledger" means here (the sandbox keeps running balances, src/sandbox/resources/*.ts):
// - a user's fiat balance (`balances.amount`, per currency) is credited by fundUser and by rejectPayout (the
//   refund), and debited by createPayout and by an INVERSE createOnRamp (`on_ramps.record.depositInstructions`
//   empty). The sandbox keeps no record of fundUser, so the script's own log of acknowledged fundUser calls
//   stands for those credits: balance + payouts not REJECTED + INVERSE on-ramps = funded. A fundUser whose
//   answer was lost with the killed instance may or may not have landed: such a user's sum must lie between
//   the acknowledged funding and that plus the lost amounts.
// - a custody wallet's balance (`custody_wallets.balance`) is credited by completed on-ramps of its token (to
//   the user's oldest wallet of that token, as payOnRamp does), by completed transfers into it, and by a
//   cancelled transfer's refund; it is debited by every transfer out of it at creation. So balance = completed
//   on-ramps + completed transfers in - transfers out not cancelled. The script never calls fundWallet.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createBusinessClient, createV1Client } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { deliverySchedule } from '../../src/client/webhooks/index.js';
import { readBundleFile } from '../../src/sandbox/contract/document.js';
import { precompiledValidator } from '../../src/sandbox/contract/reference.js';
import { createRouter } from '../../src/sandbox/contract/router.js';
import { createEventCatalog, processOf } from '../../src/sandbox/events/index.js';
import { SANDBOX_FAMILIES } from '../../src/sandbox/server.js';
import { type EventReceiver, type ReceiverBehaviour, startEventReceiver } from '../../src/testing/event-receiver.js';
import { launchSandbox, type SandboxProcess } from '../../src/testing/sandbox-process.js';
import { percentile } from './percentile.js';

export interface LoadOptions {
  /** An empty PostgreSQL database both instances share. */
  databaseUrl: string;
  /** Concurrent virtual clients (1 to MAX_CLIENTS). */
  clients: number;
  /** Seconds of load (1 to MAX_SECONDS); one instance is killed half-way. */
  seconds: number;
  log?: (line: string) => void;
}

export const MAX_CLIENTS = 64;
export const MAX_SECONDS = 600;

export interface Check {
  name: string;
  pass: boolean;
  figures: string;
}

export interface OperationRow {
  operation: string;
  count: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  /** Answers the flow did not expect, and network errors on a live instance. */
  errors: number;
  /** Refusals the flow asked for (an overdraw, a payout racing others for the same balance). */
  refused: number;
  /** Requests lost with the killed instance (no answer): not errors of the sandbox. */
  lostToKill: number;
}

export interface LoadReport {
  checks: Check[];
  operations: OperationRow[];
  seconds: number;
  killedAtSeconds: number;
  inFlightAtKill: number;
  flows: { completed: number; interrupted: number };
  passed: boolean;
  evidence: Evidence;
}

/** Thrown by the balancer for a request that the killed instance never answered. */
class LostToKill extends Error {}
const lostToKill = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if (e instanceof LostToKill) return true;
  return false;
};

// ---- Everything started, so that it can be stopped on any exit path.

const stoppers = new Set<() => Promise<void>>();
/** Stops every process and server `runLoad` started and has not stopped yet. */
export async function stopAll(): Promise<void> {
  const all = [...stoppers];
  stoppers.clear();
  await Promise.allSettled(all.map((stop) => stop()));
}

function track(sandbox: SandboxProcess): void {
  const stop = async () => {
    if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) return;
    sandbox.child.kill('SIGTERM');
    const timer = setTimeout(() => sandbox.child.kill('SIGKILL'), 5_000);
    await sandbox.exit;
    clearTimeout(timer);
  };
  stoppers.add(stop);
}

// ---- Webhook receivers (src/testing/event-receiver.ts): each logs every call it gets before answering.

type Behaviour = ReceiverBehaviour;
export type Receiver = EventReceiver;

async function startReceiver(behaviour: Behaviour): Promise<Receiver> {
  const receiver = await startEventReceiver(behaviour);
  stoppers.add(receiver.close);
  return receiver;
}

// ---- The load balancer: a fetch for the typed clients that sends each request to the next live instance
// and times it under the operationId the bundles give its method and path.

interface Instance {
  url: string;
  process: SandboxProcess;
  killed: boolean;
  inFlight: number;
}

interface Tally {
  latencies: number[];
  errors: number;
  refused: number;
  lostToKill: number;
}

function createBalancer(instances: Instance[]) {
  const { routes } = createRouter(
    SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) })),
    precompiledValidator,
  );
  const tallies = new Map<string, Tally>();
  const tally = (operation: string) => {
    let t = tallies.get(operation);
    if (!t) {
      t = { latencies: [], errors: 0, refused: 0, lostToKill: 0 };
      tallies.set(operation, t);
    }
    return t;
  };
  const operationOf = (method: string, path: string) =>
    routes.find(
      (r) => r.entry.method === method.toLowerCase() && r.segments === path.split('/').length && r.match(path),
    )?.entry.operationId ?? `${method} ${path}`;
  let next = 0;
  const errors: string[] = [];
  const fetchVia: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const live = instances.filter((i) => !i.killed);
    const instance = live[next++ % live.length]!;
    const url = new URL(request.url);
    const operation = operationOf(request.method, url.pathname);
    const target = new URL(url.pathname + url.search, instance.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const started = performance.now();
    instance.inFlight++;
    try {
      const response = await fetch(target, {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        redirect: 'manual',
      });
      tally(operation).latencies.push(performance.now() - started);
      return response;
    } catch (error) {
      if (instance.killed) {
        tally(operation).lostToKill++;
        throw new LostToKill(`${operation} was in flight on the killed instance`, { cause: error });
      }
      tally(operation).errors++;
      if (errors.length < 20) errors.push(`${operation}: ${(error as Error).message}`);
      throw error;
    } finally {
      instance.inFlight--;
    }
  };
  return { fetch: fetchVia, tally, tallies, errors };
}

// ---- The flows.

export interface Ledger {
  /** ID -> table, for every create that was answered with success. */
  created: Map<string, string>;
  /** ID -> the state the last acknowledged transition left it in. */
  states: Map<string, { table: string; status: string }>;
  /** user -> COP acknowledged by fundUser, and COP sent in fundUser calls lost with the killed instance. */
  funded: Map<string, { known: number; lost: number }>;
  /** Concurrent payouts for one balance: how many were accepted against how many the balance covered. */
  races: { raced: number; overAccepted: number };
  unexpected: string[];
}

type Result = { data?: any; error?: any; response: Response };
class Unexpected extends Error {}

const PAYOUT_RACE = { payouts: 4, amount: 150_000 };

/** What every flow of one virtual client uses: its clients, and how it counts what the sandbox answered. */
interface FlowKit {
  common: { baseUrl: string; fetch: typeof fetch; retry: false; timeoutMs: number };
  control: ReturnType<typeof createSandboxClient>;
  ledger: Ledger;
  balancer: ReturnType<typeof createBalancer>;
  person: any;
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
  const person = (() => {
    const { external_user_id: _fixed, ...rest } = (readBundleFile('v1') as any).components.examples
      .RegisterNaturalPerson.value;
    return rest;
  })();
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
  return { common, control: createSandboxClient(common), ledger, balancer, person, ok, moved };
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
  const { control, ok, moved, ledger, person } = kit;
  const clientId = t.id;
  const registered = await ok(
    'registerUser',
    t.v1.registerUser({ params: { header: { 'x-integration-register': t.register } }, body: person }),
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

async function runFlows(
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

// ---- Checks, straight in PostgreSQL and in the receivers' logs.

/** What the clients and the receivers saw, for the checks against the database. */
export interface Evidence {
  ledger: Ledger;
  receivers: Record<Behaviour, Receiver>;
  /** performance.now() when the kill was sent. */
  killedAtMs: number;
  /** The sandbox clock's offset before the drain, and each move the drain made (performance.now() around it). */
  clock: { offsetMs: number; moves: { sentAt: number; answeredAt: number; offsetMs: number }[] };
}

type Query = <Row>(text: string, params?: unknown[]) => Promise<Row[]>;

/** The checks (a)-(c), against the database the load ran on. */
export async function checkDatabase(db: pg.Client, evidence: Evidence): Promise<Check[]> {
  const q: Query = async <Row>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as Row[];
  return [
    ...(await recordChecks(q, evidence.ledger)),
    ...(await ledgerChecks(q, evidence.ledger)),
    ...(await deliveryChecks(q, evidence)),
  ];
}

/** (a) Every acknowledged create is a row, and every acknowledged transition is the row's state. */
async function recordChecks(q: Query, ledger: Ledger): Promise<Check[]> {
  const checks: Check[] = [];
  const byTable = new Map<string, string[]>();
  for (const [id, table] of ledger.created) byTable.set(table, [...(byTable.get(table) ?? []), id]);
  const missing: string[] = [];
  for (const [table, ids] of byTable) {
    const found = new Set(
      (await q<{ id: string }>(`select id::text as id from ${table} where id = any($1::uuid[])`, [ids])).map(
        (r) => r.id,
      ),
    );
    for (const id of ids) if (!found.has(id)) missing.push(`${table} ${id}`);
  }
  checks.push({
    name: 'every create answered with success is in the database',
    pass: missing.length === 0,
    figures: `${ledger.created.size} acknowledged, ${missing.length} missing${missing.length ? `: ${missing.slice(0, 5).join(', ')}` : ''}`,
  });
  const wrong: string[] = [];
  const byStateTable = new Map<string, [string, string][]>();
  for (const [id, { table, status }] of ledger.states)
    byStateTable.set(table, [...(byStateTable.get(table) ?? []), [id, status]]);
  for (const [table, pairs] of byStateTable) {
    const rows = new Map(
      (
        await q<{ id: string; status: string }>(
          `select id::text as id, status from ${table} where id = any($1::uuid[])`,
          [pairs.map(([id]) => id)],
        )
      ).map((r) => [r.id, r.status]),
    );
    for (const [id, status] of pairs)
      if (rows.get(id) !== status) wrong.push(`${table} ${id}: ${rows.get(id) ?? 'missing'}, not ${status}`);
  }
  checks.push({
    name: 'every transition answered with success is the state in the database',
    pass: wrong.length === 0,
    figures: `${ledger.states.size} acknowledged, ${wrong.length} not found${wrong.length ? `: ${wrong.slice(0, 5).join('; ')}` : ''}`,
  });

  return checks;
}

/** (b) No negative balance, and the ledgers sum. */
async function ledgerChecks(q: Query, ledger: Ledger): Promise<Check[]> {
  const checks: Check[] = [];
  const [negative] = await q<{ users: string; wallets: string }>(
    'select (select count(*) from balances where amount < 0) as users, (select count(*) from custody_wallets where balance < 0) as wallets',
  );
  checks.push({
    name: 'no balance is negative',
    pass: Number(negative!.users) + Number(negative!.wallets) === 0,
    figures: `${negative!.users} user balances, ${negative!.wallets} wallets below 0`,
  });
  const users = await q<{ id: string; balance: string; payouts: string; inverse: string }>(
    `select u.id::text as id,
            coalesce((select amount from balances b where b.tenant_id = u.tenant_id and b.owner_id = u.id and b.currency = 'COP'), 0) as balance,
            coalesce((select sum(amount) from payouts p where p.user_id = u.id and p.currency = 'COP' and p.status <> 'REJECTED'), 0) as payouts,
            coalesce((select sum((o.record->>'amountOrigin')::numeric) from on_ramps o where o.user_id = u.id and o.record->'depositInstructions' = '{}'::jsonb), 0) as inverse
       from users u`,
  );
  let uncertain = 0;
  const unbalanced: string[] = [];
  for (const u of users) {
    const funded = ledger.funded.get(u.id) ?? { known: 0, lost: 0 };
    if (funded.lost) uncertain++;
    const sum = Number(u.balance) + Number(u.payouts) + Number(u.inverse);
    if (sum < funded.known || sum > funded.known + funded.lost)
      unbalanced.push(
        `user ${u.id}: balance ${u.balance} + payouts ${u.payouts} + inverse on-ramps ${u.inverse} = ${sum}, funded ${funded.known}${funded.lost ? ` (+${funded.lost} unknown)` : ''}`,
      );
  }
  checks.push({
    name: 'every user ledger sums: COP balance + payouts not rejected + INVERSE on-ramps = funded',
    pass: unbalanced.length === 0,
    figures: `${users.length} users, ${unbalanced.length} off${uncertain ? ` (${uncertain} with a fundUser lost to the kill, checked as a range)` : ''}${unbalanced.length ? `: ${unbalanced.slice(0, 3).join('; ')}` : ''}`,
  });
  const wallets = await q<{ id: string; balance: string; expected: string }>(
    `select w.id::text as id, w.balance,
            coalesce((select sum(o.amount_destination) from on_ramps o
                       where o.status = 'COMPLETED' and o.user_id = w.user_id and o.symbol_destination = w.token
                         and w.id = (select x.id from custody_wallets x where x.user_id = w.user_id and x.token = w.token order by x.created_at limit 1)), 0)
          + coalesce((select sum(t.amount) from wallet_transfers t where t.destination_wallet = w.id and t.status = 'completed'), 0)
          - coalesce((select sum(t.amount) from wallet_transfers t where t.origin_wallet = w.id and t.status <> 'cancelled'), 0) as expected
       from custody_wallets w`,
  );
  const walletsOff = wallets.filter((w) => Math.abs(Number(w.balance) - Number(w.expected)) > 1e-9);
  checks.push({
    name: 'every wallet ledger sums: balance = completed on-ramps + completed transfers in - transfers out not cancelled',
    pass: walletsOff.length === 0,
    figures: `${wallets.length} wallets, ${walletsOff.length} off${
      walletsOff.length
        ? `: ${walletsOff
            .slice(0, 3)
            .map((w) => `${w.id} ${w.balance} != ${w.expected}`)
            .join('; ')}`
        : ''
    }`,
  });
  checks.push({
    name: 'concurrent payouts never took more than the balance covered',
    pass: ledger.races.overAccepted === 0,
    figures: `${ledger.races.raced} races of ${PAYOUT_RACE.payouts} payouts, ${ledger.races.overAccepted} over-accepted`,
  });

  return checks;
}

/**
 * (c) Every event reached every endpoint it was for: healthy ones once by event id, failing ones on the whole
 * schedule, and every call a receiver got is in the delivery log. A call in flight when its instance was killed,
 * or when its lease ran out, is made again: the log shows both calls, and only such a repeat is allowed.
 */
async function deliveryChecks(q: Query, evidence: Evidence): Promise<Check[]> {
  const { receivers, killedAtMs, clock } = evidence;
  const checks: Check[] = [];
  const events = await q<{ id: string; tenant_id: string; event: string }>(
    'select id::text as id, tenant_id::text as tenant_id, event from sandbox_events',
  );
  const endpoints = await q<{ id: string; tenant_id: string; trigger_event: string }>(
    'select id::text as id, tenant_id::text as tenant_id, trigger_event from integration_endpoints where is_active',
  );
  const hooks = await q<{ id: string; tenant_id: string; process: string }>(
    'select id::text as id, tenant_id::text as tenant_id, process from business_webhooks where status',
  );
  const deliveries = await q<DeliveryRow>(
    `select d.id::text as id, d.event_id::text as event_id, d.endpoint_id::text as endpoint_id, d.url, d.status
       from sandbox_deliveries d`,
  );
  const attemptRows = await q<AttemptRow>(
    `select delivery_id::text as delivery_id, claim, attempt, started_at, finished_at, outcome, abandoned
       from sandbox_delivery_attempts order by delivery_id, claim`,
  );
  const deliveryKeys = new Set(deliveries.map((d) => `${d.event_id}|${d.endpoint_id}`));
  let expectedDeliveries = 0;
  const notQueued: string[] = [];
  for (const e of events) {
    const targets = [
      ...endpoints.filter((i) => i.tenant_id === e.tenant_id && i.trigger_event === e.event).map((i) => i.id),
      ...hooks.filter((h) => h.tenant_id === e.tenant_id && h.process === processOf(e.event)).map((h) => h.id),
    ];
    for (const target of targets) {
      expectedDeliveries++;
      if (!deliveryKeys.has(`${e.id}|${target}`)) notQueued.push(`${e.event} ${e.id} -> ${target}`);
    }
  }
  checks.push({
    name: 'every event was queued for every endpoint registered for it',
    pass: notQueued.length === 0,
    figures: `${events.length} events, ${expectedDeliveries} deliveries expected, ${notQueued.length} not queued${notQueued.length ? `: ${notQueued.slice(0, 3).join('; ')}` : ''}`,
  });

  const logged = loggedAttempts(attemptRows, clock);
  const { check, seenOf, receiverOf } = logCheck(receivers, deliveries, logged, killedAtMs);
  checks.push(check, ...endpointChecks(deliveries, logged, seenOf, receiverOf));
  return checks;
}

/**
 * Sandbox time to this process's performance.now(): the offset in force is the one whose window (between the
 * drain's clock moves, a second allowed either side) holds the time; each move jumps it by far more than that.
 */
const SLACK_MS = 1_000;

/** An attempt of the delivery log, its start and end in this process's performance.now(). */
interface Logged {
  claim: number;
  attempt: number;
  outcome: string;
  abandoned: boolean;
  from: number;
  to: number;
  matched: boolean;
}

interface AttemptRow {
  delivery_id: string;
  claim: number;
  attempt: number;
  started_at: Date;
  finished_at: Date;
  outcome: string;
  abandoned: boolean;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  status: string;
}

/** The delivery log by delivery, its times moved to this process's clock. */
function loggedAttempts(attemptRows: AttemptRow[], clock: Evidence['clock']): Map<string, Logged[]> {
  const epochs = [{ from: -Infinity, to: clock.moves[0]?.answeredAt ?? Infinity, offsetMs: clock.offsetMs }];
  for (const [i, move] of clock.moves.entries())
    epochs.push({ from: move.sentAt, to: clock.moves[i + 1]?.answeredAt ?? Infinity, offsetMs: move.offsetMs });
  const localOffset = (sandboxMs: number) => {
    const fits = epochs.filter((e) => {
      const t = sandboxMs - e.offsetMs - performance.timeOrigin;
      return t >= e.from - SLACK_MS && t <= e.to + SLACK_MS;
    });
    return (fits.at(-1) ?? epochs[0]!).offsetMs + performance.timeOrigin;
  };
  const logged = new Map<string, Logged[]>();
  for (const a of attemptRows) {
    const started = new Date(a.started_at).getTime();
    const shift = localOffset(started);
    const row = {
      claim: a.claim,
      attempt: a.attempt,
      outcome: a.outcome,
      abandoned: a.abandoned,
      from: started - shift,
      to: new Date(a.finished_at).getTime() - shift,
      matched: false,
    };
    logged.set(a.delivery_id, [...(logged.get(a.delivery_id) ?? []), row]);
  }

  return logged;
}

/**
 * Matches each call a receiver logged to a logged attempt; the check, how many calls each delivery's endpoint
 * received, and which receiver a URL is.
 */
function logCheck(
  receivers: Record<Behaviour, Receiver>,
  deliveries: DeliveryRow[],
  logged: Map<string, Logged[]>,
  killedAtMs: number,
): { check: Check; seenOf: Map<string, number>; receiverOf: (url: string) => Behaviour | null } {
  // Each call a receiver logged, matched one by one to a logged attempt of its delivery (same URL and event id)
  // that was under way when the call arrived: taken in order of arrival, each call takes the attempt that ends
  // first among those it fits. A call nothing matches is a call the log lost.
  const receiverOf = (url: string): Behaviour | null =>
    (Object.entries(receivers) as [Behaviour, Receiver][]).find(([, r]) => url.startsWith(`${r.url}/`))?.[0] ?? null;
  const byKey = new Map(deliveries.map((d) => [`${d.url}|${d.event_id}`, d]));
  const seenOf = new Map<string, number>();
  const log = { calls: 0, matched: 0, unmatched: [] as string[] };
  for (const receiver of Object.values(receivers))
    for (const [key, times] of receiver.calls) {
      const d = byKey.get(key);
      const rows = d ? (logged.get(d.id) ?? []) : [];
      if (d) seenOf.set(d.id, times.length);
      for (const t of [...times].sort((x, y) => x - y)) {
        log.calls++;
        const fitting = rows.filter((r) => !r.matched && r.from - SLACK_MS <= t && t <= r.to + SLACK_MS);
        const match = fitting.sort((x, y) => x.to - y.to)[0];
        if (match) {
          match.matched = true;
          log.matched++;
        } else
          log.unmatched.push(
            `${d ? `delivery ${d.id}` : 'no delivery'}: a call to ${key} at ${(t / 1000).toFixed(1)} s is not in its log (${rows.length} attempts logged)`,
          );
      }
    }
  // A logged attempt no call matches: only a timeout may be one (a claim the killed instance never recorded,
  // which may have died before calling; a call aborted before it arrived). An abandoned claim is the killed
  // instance's, made before the kill.
  const all = [...logged.entries()].flatMap(([id, rows]) => rows.map((r) => ({ id, ...r })));
  const abandoned = all.filter((r) => r.abandoned);
  const unreached = all.filter((r) => !r.matched);
  const loggedProblems = [
    ...unreached
      .filter((r) => r.outcome !== 'timeout')
      .map((r) => `delivery ${r.id}: claim ${r.claim} (attempt ${r.attempt}, ${r.outcome}) is logged, no call arrived`),
    ...abandoned
      .filter((r) => r.from > killedAtMs + SLACK_MS)
      .map((r) => `delivery ${r.id}: claim ${r.claim} was abandoned, yet started after the kill`),
  ];
  const check = {
    name: 'every call an endpoint received is in the delivery log (matched one by one to a logged attempt)',
    pass: log.unmatched.length === 0 && loggedProblems.length === 0,
    figures: `${log.calls} calls received, ${all.length} attempts logged, ${log.matched} matched; ${log.unmatched.length} calls not in the log; ${abandoned.length} claims of the killed instance logged as timeouts (${abandoned.filter((r) => r.matched).length} had reached the endpoint); ${unreached.length} logged attempts no call matches (${unreached.filter((r) => r.outcome === 'timeout').length} timeouts)${log.unmatched.length + loggedProblems.length ? `; ${log.unmatched.length + loggedProblems.length} problems: ${[...log.unmatched, ...loggedProblems].slice(0, 3).join('; ')}` : ''}`,
  };
  return { check, seenOf, receiverOf };
}

/** Healthy endpoints reached once, failing ones on the whole schedule. */
function endpointChecks(
  deliveries: DeliveryRow[],
  logged: Map<string, Logged[]>,
  seenOf: Map<string, number>,
  receiverOf: (url: string) => Behaviour | null,
): Check[] {
  const checks: Check[] = [];
  const healthy = { deliveries: 0, once: 0, repeated: 0, problems: [] as string[] };
  const failing = { deliveries: 0, calls: 0, abandoned: 0, problems: [] as string[] };
  const scheduled = deliverySchedule().calls;
  for (const d of deliveries) {
    const behaviour = receiverOf(d.url);
    if (!behaviour) continue;
    const seen = seenOf.get(d.id) ?? 0;
    const rows = logged.get(d.id) ?? [];
    if (behaviour === 'healthy') {
      healthy.deliveries++;
      // Once; more only where the log shows the call made more than once (in flight at the kill or when its
      // lease ran out).
      if (d.status !== 'delivered') healthy.problems.push(`${d.id} is ${d.status}`);
      else if (seen === 1) healthy.once++;
      else if (seen > 1 && seen <= rows.length) healthy.repeated += seen - 1;
      else healthy.problems.push(`event ${d.event_id} reached ${d.url} ${seen} times, ${rows.length} calls logged`);
    } else {
      failing.deliveries++;
      failing.calls += seen;
      // Every scheduled attempt is logged once, in order: recorded (and then it reached the endpoint), or a claim
      // of the killed instance logged as a timeout, which used up its attempt. The endpoint never got more.
      const logged = rows.map((r) => r.attempt).sort((x, y) => x - y);
      if (d.status !== 'failed' || logged.join() !== Array.from({ length: scheduled }, (_, i) => i + 1).join())
        failing.problems.push(
          `${d.id} is ${d.status} with attempts ${logged.join(', ') || 'none'} of ${scheduled} logged`,
        );
      else if (rows.some((r) => !r.abandoned && !r.matched) || seen > scheduled)
        failing.problems.push(
          `event ${d.event_id} reached ${d.url} ${seen} times, scheduled ${scheduled}, ${rows.length} attempts logged`,
        );
      else failing.abandoned += rows.filter((r) => r.abandoned).length;
    }
  }
  checks.push({
    name: 'every event reached every healthy endpoint exactly once (by event id)',
    pass: healthy.problems.length === 0,
    figures: `${healthy.deliveries} deliveries, ${healthy.once} exactly once, ${healthy.repeated} calls made again and logged (in flight at the kill or when a lease ran out)${healthy.problems.length ? `; ${healthy.problems.length} problems: ${healthy.problems.slice(0, 3).join('; ')}` : ''}`,
  });
  checks.push({
    name: `every failing endpoint's delivery made the scheduled ${scheduled} attempts, numbered 1 to ${scheduled} once each`,
    pass: failing.problems.length === 0,
    figures: `${failing.deliveries} deliveries, ${failing.calls} calls received, ${failing.abandoned} attempts of the killed instance logged as timeouts${failing.problems.length ? `; ${failing.problems.length} problems: ${failing.problems.slice(0, 3).join('; ')}` : ''}`,
  });
  return checks;
}

/**
 * Drains the delivery queue: the survivor's clock moves past every retry delay and past the lease of calls the
 * killed instance had claimed, until no delivery is pending. Resolves with how many are still pending, and the
 * clock's moves (to place the log's sandbox times on this process's clock when calls are matched).
 */
async function drainDeliveries(
  db: pg.Client,
  survivorUrl: string,
): Promise<{ pending: number; clock: Evidence['clock'] }> {
  const survivor = createSandboxClient({ baseUrl: survivorUrl, retry: false });
  // The clock's moves, to place the log's sandbox times on this process's clock when calls are matched.
  const clock: Evidence['clock'] = {
    offsetMs: Number((await db.query('select offset_ms from sandbox_clock where id = 1')).rows[0]?.offset_ms ?? 0),
    moves: [],
  };
  const step = Math.ceil(
    (deliverySchedule().timeoutMs + Math.max(...deliverySchedule().retryDelaysMs) + 10_000) / 1000,
  );
  // Before each move, nothing is due and no call is under way (the attempt counters stood still for 300 ms):
  // moving the clock past a call still under way would time it out in sandbox time and send it again.
  let pending = -1;
  for (let round = 0; round < deliverySchedule().calls + 6; round++) {
    let last = '';
    for (let stable = 0, polls = 0; stable < 3 && polls < 300; polls++) {
      const [row] = (
        await db.query<{ due: string; pending: string; progress: string }>(
          `select count(*) filter (where status = 'pending' and next_attempt_at <= now() + (select offset_ms from sandbox_clock) * interval '1 millisecond') as due,
                  count(*) filter (where status = 'pending') as pending,
                  sum(attempts) || '/' || (select count(*) from sandbox_delivery_attempts) as progress
             from sandbox_deliveries`,
        )
      ).rows;
      pending = Number(row!.pending);
      stable = Number(row!.due) === 0 && row!.progress === last ? stable + 1 : 0;
      last = row!.progress;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (pending === 0) break;
    const sentAt = performance.now();
    const advanced = await survivor.advanceClock({ body: { seconds: step } });
    if (!advanced.response.ok) throw new Error(`advanceClock answered ${advanced.response.status}`);
    clock.moves.push({ sentAt, answeredAt: performance.now(), offsetMs: advanced.data!.offsetSeconds * 1000 });
  }
  return { pending, clock };
}

/** Per operation: the count, requests per second, p50 and p99 latency, errors, refusals and calls lost to the kill. */
function operationFigures(balancer: ReturnType<typeof createBalancer>, elapsed: number): LoadReport['operations'] {
  return [...balancer.tallies.entries()]
    .map(([operation, t]) => {
      const sorted = [...t.latencies].sort((a, b) => a - b);
      return {
        operation,
        count: t.latencies.length,
        perSecond: t.latencies.length / elapsed,
        p50ms: percentile(sorted, 0.5) || 0,
        p99ms: percentile(sorted, 0.99) || 0,
        errors: t.errors,
        refused: t.refused,
        lostToKill: t.lostToKill,
      };
    })
    .sort((a, b) => b.count - a.count);
}

/** Runs the load, the kill, the drain and the checks. Stops what it started before it resolves or throws. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const log = options.log ?? (() => {});
  if (!(options.clients >= 1 && options.clients <= MAX_CLIENTS) || !Number.isInteger(options.clients))
    throw new Error(`--clients must be an integer from 1 to ${MAX_CLIENTS}.`);
  if (!(options.seconds >= 1 && options.seconds <= MAX_SECONDS))
    throw new Error(`--seconds must be from 1 to ${MAX_SECONDS}.`);
  const db = new pg.Client({ connectionString: options.databaseUrl });
  try {
    const receivers = {
      healthy: await startReceiver('healthy'),
      error500: await startReceiver('error500'),
      drop: await startReceiver('drop'),
    };
    const starts = await Promise.allSettled([0, 1].map(() => launchSandbox(['--database-url', options.databaseUrl])));
    for (const start of starts) if (start.status === 'fulfilled') track(start.value);
    const launched = starts.map((start) => {
      if (start.status === 'rejected') throw start.reason;
      return start.value;
    });
    const instances: Instance[] = launched.map((process) => ({
      url: process.url,
      process,
      killed: false,
      inFlight: 0,
    }));
    log(
      `Two sandboxes on one PostgreSQL: ${instances.map((i) => i.url).join(', ')}; receivers: healthy ${receivers.healthy.url}, 500 ${receivers.error500.url}, dropping ${receivers.drop.url}.`,
    );
    const balancer = createBalancer(instances);
    const ledger: Ledger = {
      created: new Map(),
      states: new Map(),
      funded: new Map(),
      races: { raced: 0, overAccepted: 0 },
      unexpected: [],
    };

    const started = performance.now();
    const until = started + options.seconds * 1000;
    let killedAt = 0;
    let killedAtMs = Infinity;
    let inFlightAtKill = 0;
    const victim = instances[1]!;
    const kill = setTimeout(
      () => {
        victim.killed = true;
        inFlightAtKill = victim.inFlight;
        killedAtMs = performance.now();
        killedAt = (killedAtMs - started) / 1000;
        victim.process.child.kill('SIGKILL');
        log(
          `SIGKILL sent to ${victim.url} at ${killedAt.toFixed(1)} s, with ${inFlightAtKill} requests in flight on it.`,
        );
      },
      (options.seconds * 1000) / 2,
    );
    const results = await Promise.all(
      Array.from({ length: options.clients }, (_, i) =>
        runFlows(instances[0]!.url, balancer, receivers, ledger, i, until),
      ),
    );
    clearTimeout(kill);
    const elapsed = (performance.now() - started) / 1000;
    await victim.process.exit;
    const flows = results.reduce(
      (a, r) => ({ completed: a.completed + r.completed, interrupted: a.interrupted + r.interrupted }),
      { completed: 0, interrupted: 0 },
    );
    log(
      `Load over after ${elapsed.toFixed(1)} s: ${flows.completed} flows completed, ${flows.interrupted} interrupted. Draining the delivery queue...`,
    );

    await db.connect();
    const { pending, clock } = await drainDeliveries(db, instances[0]!.url);
    log(`Delivery queue drained (${pending} pending).`);

    const evidence: Evidence = { ledger, receivers, killedAtMs, clock };
    const checks = await checkDatabase(db, evidence);
    checks.unshift({
      name: 'the delivery queue drained',
      pass: pending === 0,
      figures: `${pending} deliveries still pending`,
    });
    checks.push({
      name: 'no unexpected answer or network error on a live instance',
      pass: ledger.unexpected.length === 0 && balancer.errors.length === 0,
      figures: `${ledger.unexpected.length + balancer.errors.length} found${ledger.unexpected.length + balancer.errors.length ? `: ${[...ledger.unexpected, ...balancer.errors].slice(0, 3).join('; ')}` : ''}`,
    });
    checks.push({
      name: 'the killed instance was killed by SIGKILL half-way',
      pass: victim.killed && (await victim.process.exit).signal === 'SIGKILL',
      figures: `at ${killedAt.toFixed(1)} s of ${elapsed.toFixed(1)} s`,
    });
    const operations = operationFigures(balancer, elapsed);
    return {
      checks,
      operations,
      seconds: elapsed,
      killedAtSeconds: killedAt,
      inFlightAtKill,
      flows,
      passed: checks.every((c) => c.pass),
      evidence,
    };
  } finally {
    await db.end().catch(() => undefined);
    await stopAll();
  }
}

export function formatReport(report: LoadReport): string {
  const lines: string[] = [];
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  lines.push(
    `${'operation'.padEnd(28)}${pad('count', 8)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('errors', 8)}${pad('refused', 9)}${pad('lost', 6)}`,
  );
  for (const r of report.operations) {
    lines.push(
      `${r.operation.padEnd(28)}${pad(r.count, 8)}${pad(r.perSecond.toFixed(1), 9)}${pad(r.p50ms.toFixed(1), 9)}${pad(r.p99ms.toFixed(1), 9)}${pad(r.errors, 8)}${pad(r.refused, 9)}${pad(r.lostToKill, 6)}`,
    );
  }
  const total = report.operations.reduce((a, r) => a + r.count, 0);
  lines.push(`${'all'.padEnd(28)}${pad(total, 8)}${pad((total / report.seconds).toFixed(1), 9)}`);
  lines.push('');
  lines.push(
    `Load: ${report.seconds.toFixed(1)} s, ${report.flows.completed} flows completed, ${report.flows.interrupted} interrupted (by the kill or an unexpected answer).`,
  );
  lines.push(
    `Kill: SIGKILL at ${report.killedAtSeconds.toFixed(1)} s; ${report.inFlightAtKill} requests in flight on the killed instance; ${report.operations.reduce((a, r) => a + r.lostToKill, 0)} requests got no answer from it ("lost" above, not counted as errors).`,
  );
  lines.push('');
  for (const c of report.checks) lines.push(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.figures}`);
  lines.push('');
  lines.push(report.passed ? 'All checks hold.' : `${report.checks.filter((c) => !c.pass).length} checks failed.`);
  return lines.join('\n');
}
