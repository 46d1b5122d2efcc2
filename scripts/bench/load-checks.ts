// The checks of `npm run sandbox:load`, straight in PostgreSQL: (a) the records, (b) the ledgers, (c) the deliveries.
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
import type pg from 'pg';
import { processOf } from '../../src/sandbox/events/index.js';
import { type AttemptRow, type DeliveryRow, endpointChecks, logCheck, loggedAttempts } from './load-delivery-log.js';
import { type Check, type Evidence, type Ledger, noProblems, PAYOUT_RACE } from './load-evidence.js';

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
  const status = new Map<string, string | null>();
  const ids = [
    ...[...ledger.created].map(([id, table]) => ({ id, table })),
    ...[...ledger.states].map(([id, s]) => ({ id, table: s.table })),
  ];
  for (const table of new Set(ids.map((r) => r.table))) {
    const of = ids.filter((r) => r.table === table).map((r) => r.id);
    const text = `select id::text as id, to_jsonb(${table}) ->> 'status' as status from ${table} where id = any($1::uuid[])`;
    for (const row of await q<{ id: string; status: string | null }>(text, [of])) status.set(row.id, row.status);
  }
  const missing = [...ledger.created].filter(([id]) => !status.has(id)).map(([id, table]) => `${table} ${id}`);
  const wrong = [...ledger.states]
    .filter(([id, s]) => status.get(id) !== s.status)
    .map(([id, s]) => `${s.table} ${id}: ${status.get(id) ?? 'missing'}, not ${s.status}`);
  return [
    noProblems('every create answered with success is in the database', `${ledger.created.size} acknowledged`, missing),
    noProblems(
      'every transition answered with success is the state in the database',
      `${ledger.states.size} acknowledged`,
      wrong,
    ),
  ];
}

/** (b) No negative balance, and the ledgers sum. */
async function ledgerChecks(q: Query, ledger: Ledger): Promise<Check[]> {
  const [negative] = await q<{ users: string; wallets: string }>(
    'select (select count(*) from balances where amount < 0) as users, (select count(*) from custody_wallets where balance < 0) as wallets',
  );
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
  const wallets = await q<{ id: string; balance: string; expected: string }>(
    `select w.id::text as id, w.balance,
            coalesce((select sum(o.amount_destination) from on_ramps o
                       where o.status = 'COMPLETED' and o.user_id = w.user_id and o.symbol_destination = w.token
                         and w.id = (select x.id from custody_wallets x where x.user_id = w.user_id and x.token = w.token order by x.created_at limit 1)), 0)
          + coalesce((select sum(t.amount) from wallet_transfers t where t.destination_wallet = w.id and t.status = 'completed'), 0)
          - coalesce((select sum(t.amount) from wallet_transfers t where t.origin_wallet = w.id and t.status <> 'cancelled'), 0) as expected
       from custody_wallets w`,
  );
  const walletsOff = wallets
    .filter((w) => Math.abs(Number(w.balance) - Number(w.expected)) > 1e-9)
    .map((w) => `${w.id} ${w.balance} != ${w.expected}`);
  return [
    {
      name: 'no balance is negative',
      pass: Number(negative!.users) + Number(negative!.wallets) === 0,
      figures: `${negative!.users} user balances, ${negative!.wallets} wallets below 0`,
    },
    noProblems(
      'every user ledger sums: COP balance + payouts not rejected + INVERSE on-ramps = funded',
      `${users.length} users${uncertain ? ` (${uncertain} with a fundUser lost to the kill, checked as a range)` : ''}`,
      unbalanced,
    ),
    noProblems(
      'every wallet ledger sums: balance = completed on-ramps + completed transfers in - transfers out not cancelled',
      `${wallets.length} wallets`,
      walletsOff,
    ),
    {
      name: 'concurrent payouts never took more than the balance covered',
      pass: ledger.races.overAccepted === 0,
      figures: `${ledger.races.raced} races of ${PAYOUT_RACE.payouts} payouts, ${ledger.races.overAccepted} over-accepted`,
    },
  ];
}

/**
 * (c) Every event reached every endpoint it was for: healthy ones once by event id, failing ones on the whole
 * schedule, and every call a receiver got is in the delivery log. A call in flight when its instance was killed,
 * or when its lease ran out, is made again: the log shows both calls, and only such a repeat is allowed.
 */
async function deliveryChecks(q: Query, evidence: Evidence): Promise<Check[]> {
  const { receivers, killedAtMs, clock } = evidence;
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
  const logged = loggedAttempts(attemptRows, clock);
  const { check, seenOf, receiverOf } = logCheck(receivers, deliveries, logged, killedAtMs);
  return [
    noProblems(
      'every event was queued for every endpoint registered for it',
      `${events.length} events, ${expectedDeliveries} deliveries expected`,
      notQueued,
    ),
    check,
    ...endpointChecks(deliveries, logged, seenOf, receiverOf),
  ];
}
