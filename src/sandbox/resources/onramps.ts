// On-ramps: the user pays COP and receives a stablecoin in a registered external wallet; the sandbox also
// credits the user's custody wallet of that token, which is where its ledger keeps stablecoin.
import { randomUUID } from 'node:crypto';
import { refuse, requireInScope, tenantOf, type HandlerContext, type Handlers } from '../handler.js';
import { nextState, onRampStates } from '../states.js';
import { BANKS } from './accounts.js';
import { debit, findUser } from './users.js';
import { openCustodyWallet } from './wallets.js';
import { emitTransition } from '../events/store.js';

export const migration = `
create table if not exists on_ramps (
  id uuid primary key,
  seq bigserial,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  status text not null,
  amount_destination numeric not null,
  symbol_destination text not null,
  record jsonb not null,
  created_at timestamptz not null
);
`;

/** Sandbox's own rate: COP per unit of stablecoin. */
export const COP_PER_STABLECOIN = 4000;
/** Sandbox's own list of enabled asset pairs. */
export const ENABLED_PAIRS = ['COP/USDC', 'COP/USDT'];

const round = (n: number) => Math.round(n * 1e6) / 1e6;

async function pay(ctx: HandlerContext) {
  const rows = await ctx.sql.query<{ id: string; tenant_id: string; user_id: string; status: string; amount_destination: string; symbol_destination: string }>(
    'select * from on_ramps where id = $1 for update',
    [ctx.path.operationId],
  );
  const op = rows[0] ?? refuse(404, 'not_found', 'No on-ramp operation has this ID.');
  requireInScope(ctx, op.tenant_id, 'No on-ramp operation has this ID.');
  const { to } = nextState(onRampStates, 'on-ramp', op.status, 'payOnRamp');
  await creditStablecoin(ctx, op.tenant_id, op.user_id, op.symbol_destination, Number(op.amount_destination));
  await ctx.sql.query(`update on_ramps set status = $2, record = jsonb_set(record, '{status}', to_jsonb($2::text)) where id = $1`, [op.id, to]);
  await emitTransition(ctx, op.tenant_id, nextState(onRampStates, 'on-ramp', op.status, 'payOnRamp'), { ...((await ctx.sql.query<{ record: Record<string, unknown> }>('select record from on_ramps where id = $1', [op.id]))[0]?.record ?? {}), id: op.id, status: to });
  return { status: 200, body: { id: op.id, status: to } };
}

async function creditStablecoin(ctx: HandlerContext, tenantId: string, userId: string, token: string, amount: number) {
  // Find-or-open must not run twice at once for one user and token (two on-ramps paid together, on several
  // instances too): the second would open a second wallet. A lock held to the end of the transaction.
  await ctx.sql.query('select pg_advisory_xact_lock(hashtext($1))', [`custody-wallet:${tenantId}:${userId}:${token}`]);
  const wallets = await ctx.sql.query<{ id: string }>('select id from custody_wallets where tenant_id = $1 and user_id = $2 and token = $3 order by created_at limit 1', [tenantId, userId, token]);
  const walletId = wallets[0]?.id ?? (await openCustodyWallet(ctx.sql, tenantId, userId, token, 'POLYGON', ctx.clock.now())).id;
  await ctx.sql.query('update custody_wallets set balance = balance + $2 where id = $1', [walletId, amount]);
}

export const handlers: Handlers = {
  createOnRamp: async (ctx) => {
    const tenant = tenantOf(ctx);
    const userId = ctx.path.user_id!;
    const user = await findUser(ctx.sql, tenant, userId);
    if (!user || (user !== 'client' && user.status !== 'approved')) refuse(403, 'user_not_approved', 'The user does not exist or is not approved.');
    const b = ctx.body as Record<string, any>;
    const [origin, destinationToken] = [b.symbolOrigin ?? 'COP', b.symbolDestination ?? 'USDC'];
    if (!ENABLED_PAIRS.includes(`${origin}/${destinationToken}`)) refuse(422, 'pair_not_enabled', `The pair ${origin}/${destinationToken} is not enabled; enabled: ${ENABLED_PAIRS.join(', ')}.`);
    const wallet = (await ctx.sql.query<{ user_id: string; status: string }>('select user_id, status from external_wallets where id = $1 and tenant_id = $2', [b.destination.externalWalletId, tenant.id]))[0];
    if (!wallet) refuse(422, 'destination_not_registered', 'The destination wallet is not registered.');
    if (wallet!.status !== 'APPROVED') refuse(422, 'destination_not_approved', 'The destination wallet is not approved.');
    if (wallet!.user_id !== userId) refuse(422, 'destination_not_owned', 'The destination wallet is not the user\'s.');
    const paymentMethod: string = b.paymentMethod ?? 'DAVIPLATA';
    if (paymentMethod === 'PSE' && !BANKS.some((bank) => bank.code === b.bankCode)) refuse(422, 'unknown_bank', 'bankCode is not in the bank list.');
    const limit = user === 'client' || user.tier_limit === null ? null : Number(user.tier_limit);
    if (limit !== null && b.amount > limit) {
      refuse(422, 'tier_limit_exceeded', `The amount is over the user's tier limit of ${limit} COP.`, {
        tierEscalation: { actionType: 'DOC_UPLOAD', actionPayload: {}, message: 'Upload proof of funds to raise the limit.', expiresAt: new Date(ctx.clock.now().getTime() + 86_400_000).toISOString() },
      });
    }
    const inverse = b.executionMode === 'INVERSE';
    if (inverse && !(await debit(ctx.sql, tenant.id, userId, 'COP', b.amount))) refuse(400, 'insufficient_funds', 'The user\'s COP balance does not cover the amount.');
    const transition = onRampStates.filter((t) => t.from === null && t.trigger === 'createOnRamp')[inverse ? 1 : 0]!;
    const now = ctx.clock.now();
    const id = randomUUID();
    const amountDestination = round(b.amount / COP_PER_STABLECOIN);
    const depositInstructions = inverse ? {} : { paymentMethod, reference: `SBX-${id.slice(0, 8).toUpperCase()}`, amount: b.amount, currency: 'COP' };
    const rows = await ctx.sql.query<{ seq: number }>(
      `insert into on_ramps (id, tenant_id, user_id, status, amount_destination, symbol_destination, record, created_at)
       values ($1, $2, $3, $4, $5, $6, '{}'::jsonb, $7) returning seq`,
      [id, tenant.id, userId, transition.to, amountDestination, destinationToken, now.toISOString()],
    );
    const operation = {
      id, userId, numberCode: `ONR-${String(rows[0]!.seq).padStart(6, '0')}`, originId: userId, destinationId: b.destination.externalWalletId,
      symbolOrigin: origin, symbolDestination: destinationToken, amountOrigin: b.amount, amountDestination, rate: COP_PER_STABLECOIN,
      paymentMethod, status: transition.to, direction: 'ONRAMP', registerDate: now.toISOString(), depositInstructions, treasuryItems: [], events: [],
    };
    await ctx.sql.query('update on_ramps set record = $2 where id = $1', [id, JSON.stringify(operation)]);
    await emitTransition(ctx, tenant.id, transition, operation);
    if (inverse) await creditStablecoin(ctx, tenant.id, userId, destinationToken, amountDestination);
    // depositInfo: present when the user must send funds (NORMAL), null otherwise (INVERSE, paid from the balance).
    const depositInfo = inverse ? null : { paymentMethod, quote: { rate: COP_PER_STABLECOIN, amountDestination }, depositInstructions };
    return { status: 201, body: { operation, tierEscalation: null, depositInfo } };
  },

  payOnRamp: pay,
};
