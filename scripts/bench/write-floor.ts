// The floor under the sandbox's writes: the statements `createPayout` runs (check the user and the destination,
// debit the balance, insert the payout), sent straight to the store from this process with nothing else: no
// HTTP, no validation, no handler. Three ways, taking turns: on PGlite's own query and transaction, through the
// store interface (store/db.ts) as the handlers send them (one transaction, one statement at a time), and as
// one statement (data-modifying CTEs) through the store interface. Transactions per second, per turn.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { type Db, openPglite, type Sql, type Tx } from '../../src/sandbox/store/db.js';
import { migrate, schema } from '../../src/sandbox/store/migrate.js';
import { type Summary, sideBySide } from './harness.js';

export interface FloorRow {
  variant: string;
  transactions: number;
  perSecond: number;
  /** Transactions per second of each turn. */
  turns: Summary;
}

interface Seed {
  tenantId: string;
  userId: string;
  accountId: string;
}

async function seed(db: Pick<Db, 'transaction'>): Promise<Seed> {
  const s = { tenantId: randomUUID(), userId: randomUUID(), accountId: randomUUID() };
  const now = new Date().toISOString();
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at) values ($1, 'Floor', 'x', 'y', 'z', $2)`,
      [s.tenantId, now],
    );
    await tx.query(
      `insert into users (id, tenant_id, status, record, created_at) values ($1, $2, 'approved', '{}', $3)`,
      [s.userId, s.tenantId, now],
    );
    await tx.query(
      `insert into bank_accounts (id, tenant_id, user_id, status, holder_name, nickname, account_number, account_type, bank_name, created_at)
       values ($1, $2, $3, 'accepted', 'A', 'B', '1', 'SAVINGS', 'Bank', $4)`,
      [s.accountId, s.tenantId, s.userId, now],
    );
    await tx.query(`insert into balances (tenant_id, owner_id, currency, amount) values ($1, $2, 'COP', 1e15)`, [
      s.tenantId,
      s.userId,
    ]);
  });
  return s;
}

/**
 * createPayout's statements, one at a time in one transaction, as the handler sends them: the user, the
 * destination, the debit, the payout (its transition from no state emits no event).
 */
async function statements(sql: Sql, s: Seed): Promise<void> {
  await sql.query('select * from users where id = $1 and tenant_id = $2', [s.userId, s.tenantId]);
  await sql.query('select * from bank_accounts where id = $1 and tenant_id = $2 and user_id = $3', [
    s.accountId,
    s.tenantId,
    s.userId,
  ]);
  const debited = await sql.query(
    'update balances set amount = amount - $4 where tenant_id = $1 and owner_id = $2 and currency = $3 and amount >= $4 returning amount',
    [s.tenantId, s.userId, 'COP', 1000],
  );
  if (debited.length !== 1) throw new Error('The floor ran out of balance.');
  await sql.query(
    `insert into payouts (id, tenant_id, user_id, account_id, amount, currency, payment_method, status, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
    [randomUUID(), s.tenantId, s.userId, s.accountId, 1000, 'COP', 'ACH', 'PENDING', new Date().toISOString()],
  );
}

/** The same work as one statement: the checks, the debit and the insert in data-modifying CTEs. */
const ONE_STATEMENT = `
with checked as (
  select 1 from users u join bank_accounts a on a.user_id = u.id and a.tenant_id = u.tenant_id
  where u.id = $2 and u.tenant_id = $1 and a.id = $3 and a.status = 'accepted'
), debited as (
  update balances set amount = amount - $4
  where tenant_id = $1 and owner_id = $2 and currency = 'COP' and amount >= $4 and exists (select 1 from checked)
  returning amount
)
insert into payouts (id, tenant_id, user_id, account_id, amount, currency, payment_method, status, created_at)
select $5, $1, $2, $3, $4, 'COP', 'ACH', 'PENDING', $6 from debited returning *`;

/** The floor on PGlite in memory, the variants taking turns of `turnMs` on the harness until each has had `seconds`. */
export async function writeFloor(seconds = 4, turnMs = 500): Promise<FloorRow[]> {
  const db = await openPglite({ memory: true });
  let own: PGlite | undefined;
  try {
    await migrate(db, schema);
    const s = await seed(db);
    // A second PGlite, used through its own query and transaction (as the store did before it sent each
    // statement in one exchange), with the same settings as the store in memory.
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create({ startParams: [...PGlite.defaultStartParams, '-c', 'synchronous_commit=off'] });
    own = pglite;
    const ownDb = {
      transaction: <T>(work: (tx: Tx) => Promise<T>) =>
        pglite.transaction((tx) =>
          work({
            query: async <Row>(t: string, p?: unknown[]) => (await tx.query<Row>(t, p)).rows,
            script: async (text: string) => void (await tx.exec(text)),
          }),
        ),
    };
    await migrate(ownDb, schema);
    const ownSeed = await seed(ownDb);
    const variants: [string, () => Promise<unknown>][] = [
      [
        "PGlite's own query and transaction, createPayout's 4 statements in a transaction",
        () => ownDb.transaction((tx) => statements(tx, ownSeed)),
      ],
      [
        'the store interface (store/db.ts), the same 4 statements in a transaction',
        () => db.transaction((tx) => statements(tx, s)),
      ],
      [
        'the store interface, the same work as 1 statement (CTEs), no explicit transaction',
        () =>
          db.query(ONE_STATEMENT, [s.tenantId, s.userId, s.accountId, 1000, randomUUID(), new Date().toISOString()]),
      ],
    ];
    const contenders = variants.map(([name, run]) => ({
      name,
      turn: async () => {
        const start = performance.now();
        let count = 0;
        for (; performance.now() - start < turnMs; count++) await run();
        return { count, ms: performance.now() - start };
      },
    }));
    const turns = Math.ceil((seconds * 1000) / turnMs);
    const compared = await sideBySide(contenders, { turns, warmUp: 1 }, (t) => (1000 * t.count) / t.ms);
    return compared.map(({ name, turns, figure }) => {
      const [count, ms] = [turns.reduce((n, t) => n + t.count, 0), turns.reduce((n, t) => n + t.ms, 0)];
      return { variant: name, transactions: count, perSecond: (1000 * count) / ms, turns: figure };
    });
  } finally {
    await own?.close();
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await writeFloor(Number(process.argv[2] ?? 4)));
