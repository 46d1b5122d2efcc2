// Bank accounts and their review, and the bank directory.
import { randomInt, randomUUID } from 'node:crypto';
import { registerDate } from '../core/clock.js';
import { type CallContext, type Handlers, tenantOf } from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse, requireInScope } from '../core/refusals.js';
import { bankAccountStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { triggerIn } from '../core/triggers.js';
import { requireOwnClient } from './users.js';

/** The sandbox's bank directory (its own records; the service's ids differ per deployment). */
export const BANKS = [
  { id: '1', code: '1007', name: 'Bancolombia', status: 'true' },
  { id: '2', code: '1051', name: 'Davivienda', status: 'true' },
  { id: '3', code: '1001', name: 'Banco de Bogotá', status: 'true' },
  { id: '4', code: '1023', name: 'Banco de Occidente', status: 'true' },
  { id: '5', code: '1507', name: 'Nequi', status: 'true' },
];

export interface AccountRow {
  id: string;
  tenant_id: string;
  user_id: string;
  status: string;
  holder_name: string;
  nickname: string;
  account_number: string;
  account_type: string;
  bank_name: string;
  created_at: Date;
}

const accountView = (a: AccountRow) => ({
  id: a.id,
  accountHolderName: a.holder_name,
  accountNickname: a.nickname,
  accountNumber: a.account_number,
  accountType: a.account_type,
  bank: { name: a.bank_name },
  countryFiat: { symbolFiat: 'COP', countryId: 'CO' },
  metadata: [],
  status: a.status,
  registerDate: registerDate(new Date(a.created_at)),
  userId: a.user_id,
});

const controlView = (a: AccountRow) => ({
  accountId: a.id,
  clientId: a.tenant_id,
  userId: a.user_id,
  status: a.status,
});

const bankAccounts: Stateful<AccountRow> = {
  name: 'bank account',
  machine: bankAccountStates,
  unknown: 'No bank account has this ID.',
  lock: async (sql, id) =>
    (await sql.query<AccountRow>('select * from bank_accounts where id = $1 for update', [id]))[0],
  tenantOf: (a) => a.tenant_id,
  stateOf: (a) => a.status,
  save: async (sql, a, to) => void (await sql.query('update bank_accounts set status = $2 where id = $1', [a.id, to])),
  view: (a, to) => controlView({ ...a, status: to }),
};

async function review(ctx: CallContext, accountId: string, trigger: 'acceptBankAccount' | 'rejectBankAccount') {
  const { row, transition } = await moveRecord(ctx, bankAccounts, accountId, trigger);
  return { status: 200, body: controlView({ ...row, status: transition.to }) };
}

/** What a trigger value of createBankAccount does to the account it made. */
export const outcomes = {
  createBankAccount: (ctx, accountId) => review(ctx, accountId, 'rejectBankAccount'),
} satisfies Outcomes;

export const handlers: Handlers = {
  listBanks: async () => ({ status: 200, body: BANKS }),
  listAdminBanks: async () => ({ status: 200, body: { banks: BANKS } }),

  listBankAccounts: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    const rows =
      ctx.query.userId === undefined
        ? await ctx.sql.query<AccountRow>('select * from bank_accounts where tenant_id = $1 order by created_at', [
            tenant.id,
          ])
        : await ctx.sql.query<AccountRow>(
            'select * from bank_accounts where tenant_id = $1 and user_id = $2 order by created_at',
            [tenant.id, ctx.query.userId],
          );
    return { status: 200, body: rows.map(accountView) };
  },

  listAdminAccounts: async (ctx) => {
    const rows = await ctx.sql.query<AccountRow>(
      'select * from bank_accounts where tenant_id = $1 order by created_at',
      [tenantOf(ctx).id],
    );
    return { status: 200, body: { accounts: rows.map(accountView) } };
  },

  createBankAccount: async (ctx) => {
    const b = ctx.body;
    const userId = b.userId ?? b.clientId;
    requireInScope(ctx.tenant, b.clientId, 'No such client, or the user is not one of its users.');
    const known = await ctx.sql.query(
      'select 1 from tenants where id = $1 and ($2::uuid = $1 or exists (select 1 from users where id = $2 and tenant_id = $1))',
      [b.clientId, userId],
    );
    if (!known.length) refuse(refusals.notFound('No such client, or the user is not one of its users.'));
    const { row } = await createRecord(ctx, bankAccounts, ctx.operationId, async (to) => {
      const rows = await ctx.sql.query<AccountRow>(
        `insert into bank_accounts (id, tenant_id, user_id, status, holder_name, nickname, account_number, account_type, bank_name, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *`,
        [
          randomUUID(),
          b.clientId,
          userId,
          to,
          b.accountHolderName ?? 'Titular Sandbox',
          b.accountNickname ?? 'Cuenta sandbox',
          b.accountNumber ?? String(randomInt(1_000_000_000, 9_999_999_999)),
          b.accountType ?? 'ahorros',
          b.bankName ?? BANKS[0]!.name,
          ctx.clock.now().toISOString(),
        ],
      );
      return rows[0]!;
    });
    // A trigger value (BANK_ACCOUNT_REJECTED, or _LATER after its delay): answered in_review, then rejected by
    // rejectBankAccount's path.
    const trigger = triggerIn('createBankAccount', { body: b });
    if (trigger?.transition === 'rejectBankAccount')
      await runOrSchedule(ctx, row.tenant_id, trigger, row.id, outcomes.createBankAccount);
    return { status: 201, body: controlView(row) };
  },

  acceptBankAccount: (ctx) => review(ctx, ctx.path.accountId, ctx.operationId),
  rejectBankAccount: (ctx) => review(ctx, ctx.path.accountId, ctx.operationId),
};
