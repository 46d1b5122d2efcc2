// Fiat payouts: debited from the user's balance at creation, settled through the control API.
import { randomUUID } from 'node:crypto';
import { type CallContext, type Handlers, tenantOf } from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse } from '../core/refusals.js';
import { payoutStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { triggerIn } from '../core/triggers.js';
import type { AccountRow } from './accounts.js';
import { credit, debit, findUser } from './users.js';

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

const payouts: Stateful<PayoutRow> = {
  name: 'payout',
  machine: payoutStates,
  unknown: 'No payout has this ID.',
  lock: async (sql, id) => (await sql.query<PayoutRow>('select * from payouts where id = $1 for update', [id]))[0],
  tenantOf: (p) => p.tenant_id,
  stateOf: (p) => p.status,
  save: async (sql, p, to) => void (await sql.query('update payouts set status = $2 where id = $1', [p.id, to])),
  view: (p, to) => payoutView({ ...p, status: to }),
};

/** Rejects payout `payoutId` per the state table; a rejected payout gives the user back what its creation debited. */
async function rejectPayout(ctx: CallContext, payoutId: string) {
  const { row, transition } = await moveRecord(ctx, payouts, payoutId, 'rejectPayout', (p) =>
    credit(ctx.sql, p.tenant_id, p.user_id, p.currency, Number(p.amount), null).then(() => undefined),
  );
  return { id: row.id, status: transition.to };
}

/** What a trigger value of createPayout does to the payout it made. */
export const outcomes = { createPayout: rejectPayout } satisfies Outcomes;

export const handlers: Handlers = {
  createPayout: async (ctx) => {
    const tenant = tenantOf(ctx);
    const userId = ctx.path.user_id;
    const user = await findUser(ctx.sql, tenant, userId);
    if (!user) refuse(refusals.forbidden('No user of this client has this ID.'));
    const { amount, currency, destinationId, paymentMethod } = ctx.body;
    const account = (
      await ctx.sql.query<AccountRow>('select * from bank_accounts where id = $1 and tenant_id = $2 and user_id = $3', [
        destinationId,
        tenant.id,
        userId,
      ])
    )[0];
    if (account?.status !== 'accepted')
      refuse(refusals.destinationNotApproved('The destination must be an accepted bank account of this user.'));
    if (!(await debit(ctx.sql, tenant.id, userId, currency, amount)))
      refuse(refusals.insufficientFunds(`The user's ${currency} balance does not cover the amount.`));
    const { row } = await createRecord(ctx, payouts, ctx.operationId, async (to) => {
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
          paymentMethod ?? 'ACH',
          to,
          ctx.clock.now().toISOString(),
        ],
      );
      return rows[0]!;
    });
    // A trigger value (PAYOUT_REJECTED, or _LATER after its delay): answered PENDING, then rejected by rejectPayout's path.
    const trigger = triggerIn('createPayout', { body: ctx.body });
    if (trigger?.transition === 'rejectPayout')
      await runOrSchedule(ctx, tenant.id, trigger, row.id, outcomes.createPayout);
    return { status: 201, body: payoutView(row) };
  },

  completePayout: async (ctx) => {
    const { row, transition } = await moveRecord(ctx, payouts, ctx.path.payoutId, ctx.operationId);
    return { status: 200, body: { id: row.id, status: transition.to } };
  },
  rejectPayout: async (ctx) => ({ status: 200, body: await rejectPayout(ctx, ctx.path.payoutId) }),
};
