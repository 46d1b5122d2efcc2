// Fiat payouts: debited from the user's balance at creation, settled through the control API.
import { randomUUID } from 'node:crypto';
import { refuse, requireInScope, tenantOf, type HandlerContext, type Handlers } from '../handler.js';
import { nextState, payoutStates } from '../states.js';
import type { AccountRow } from './accounts.js';
import { credit, debit, findUser } from './users.js';
import { emitTransition } from '../events/store.js';

export const migration = `
create table if not exists payouts (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  account_id uuid not null,
  amount numeric not null,
  currency text not null,
  payment_method text not null,
  status text not null,
  created_at timestamptz not null
);
`;

interface PayoutRow {
  id: string;
  tenant_id: string;
  user_id: string;
  amount: string;
  currency: string;
  payment_method: string;
  status: string;
}

const payoutView = (p: PayoutRow) => ({
  id: p.id,
  status: p.status,
  currency: p.currency,
  amount: Number(p.amount),
  paymentMethod: p.payment_method,
});

async function settle(ctx: HandlerContext, trigger: 'completePayout' | 'rejectPayout') {
  const rows = await ctx.sql.query<PayoutRow>('select * from payouts where id = $1 for update', [ctx.path.payoutId]);
  const payout = rows[0] ?? refuse(404, 'not_found', 'No payout has this ID.');
  requireInScope(ctx, payout.tenant_id, 'No payout has this ID.');
  const { to } = nextState(payoutStates, 'payout', payout.status, trigger);
  if (to === 'REJECTED')
    await credit(ctx.sql, payout.tenant_id, payout.user_id, payout.currency, Number(payout.amount), null);
  await ctx.sql.query('update payouts set status = $2 where id = $1', [payout.id, to]);
  await emitTransition(ctx, payout.tenant_id, nextState(payoutStates, 'payout', payout.status, trigger), {
    ...payoutView(payout),
    status: to,
  });
  return { status: 200, body: { id: payout.id, status: to } };
}

export const handlers: Handlers = {
  createPayout: async (ctx) => {
    const tenant = tenantOf(ctx);
    const userId = ctx.path.user_id!;
    const user = await findUser(ctx.sql, tenant, userId);
    if (!user) refuse(403, 'forbidden', 'No user of this client has this ID.');
    const { amount, currency, destinationId } = ctx.body as { amount: number; currency: string; destinationId: string };
    if (!(amount > 0)) refuse(422, 'invalid_amount', 'The amount must be more than 0.');
    const account = (
      await ctx.sql.query<AccountRow>('select * from bank_accounts where id = $1 and tenant_id = $2 and user_id = $3', [
        destinationId,
        tenant.id,
        userId,
      ])
    )[0];
    if (!account || account.status !== 'accepted')
      refuse(422, 'destination_not_approved', 'The destination must be an accepted bank account of this user.');
    if (!(await debit(ctx.sql, tenant.id, userId, currency, amount)))
      refuse(400, 'insufficient_funds', `The user's ${currency} balance does not cover the amount.`);
    const { to } = nextState(payoutStates, 'payout', null, 'createPayout');
    const rows = await ctx.sql.query<PayoutRow>(
      `insert into payouts (id, tenant_id, user_id, account_id, amount, currency, payment_method, status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
      [
        randomUUID(),
        tenant.id,
        userId,
        destinationId,
        amount,
        currency,
        ctx.body.paymentMethod ?? 'ACH',
        to,
        ctx.clock.now().toISOString(),
      ],
    );
    await emitTransition(ctx, tenant.id, nextState(payoutStates, 'payout', null, 'createPayout'), payoutView(rows[0]!));
    return { status: 201, body: payoutView(rows[0]!) };
  },

  completePayout: (ctx) => settle(ctx, 'completePayout'),
  rejectPayout: (ctx) => settle(ctx, 'rejectPayout'),
};
