// On-ramps: the user pays COP and receives a stablecoin in a registered external wallet; the sandbox also
// credits the user's custody wallet of that token, which is where its ledger keeps stablecoin. An on-ramp
// waiting for its deposit has a checkout: a page of the sandbox (/sandbox/checkout/{checkoutId}) where a tester
// pays it or has it rejected (getCheckout, payCheckout, rejectCheckout).
import { randomBytes, randomUUID } from 'node:crypto';
import { type CallContext, type Handlers, tenantOf } from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse } from '../core/refusals.js';
import { onRampStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { triggerIn } from '../core/triggers.js';
import { BANKS } from './accounts.js';
import { debit, findUser, MAX_BALANCE } from './users.js';
import { openCustodyWallet } from './wallets.js';

/** Sandbox's own rate: COP per unit of stablecoin. */
export const COP_PER_STABLECOIN = 4000;
/** Sandbox's own list of enabled asset pairs. */
export const ENABLED_PAIRS = ['COP/USDC', 'COP/USDT'];

/** To 6 decimals; a number so large that scaling it overflows has no decimals to round (it stays as it is, finite). */
const round = (n: number) => {
  const rounded = Math.round(n * 1e6) / 1e6;
  return Number.isFinite(rounded) ? rounded : n;
};

interface OnRampRow {
  id: string;
  tenant_id: string;
  user_id: string;
  status: string;
  amount_destination: string;
  symbol_destination: string;
  seq: number;
  record: Record<string, unknown>;
}

const onRamps: Stateful<OnRampRow> = {
  name: 'on-ramp',
  machine: onRampStates,
  unknown: 'No on-ramp operation has this ID.',
  lock: async (sql, id) => (await sql.query<OnRampRow>('select * from on_ramps where id = $1 for update', [id]))[0],
  tenantOf: (op) => op.tenant_id,
  stateOf: (op) => op.status,
  save: async (sql, op, to) =>
    void (await sql.query(
      `update on_ramps set status = $2, record = jsonb_set(record, '{status}', to_jsonb($2::text)) where id = $1`,
      [op.id, to],
    )),
  view: (op, to) => ({ ...op.record, id: op.id, status: to }),
};

/** Pays (the deposit arrived: stablecoin credited) or rejects (nothing credited) an on-ramp, per the state table, with its events. */
async function settle(ctx: CallContext, operationId: string, trigger: 'payOnRamp' | 'rejectOnRamp') {
  const { row, transition } = await moveRecord(ctx, onRamps, operationId, trigger, async (op) => {
    if (trigger === 'payOnRamp')
      await creditStablecoin(ctx, op.tenant_id, op.user_id, op.symbol_destination, Number(op.amount_destination));
  });
  return { id: row.id, status: transition.to };
}

/** A checkout, the on-ramp it pays and where the user returns to; 404 when unknown. */
async function checkoutOf(ctx: CallContext & { path: { checkoutId: string } }) {
  const rows = await ctx.sql.query<OnRampRow & { checkout_id: string; redirect_url: string | null }>(
    'select o.*, c.id as checkout_id, c.redirect_url from on_ramp_checkouts c join on_ramps o on o.id = c.operation_id and o.tenant_id = c.tenant_id where c.id = $1',
    [ctx.path.checkoutId],
  );
  return rows[0] ?? refuse(refusals.notFound('No checkout has this ID.'));
}

async function checkoutOutcome(
  ctx: CallContext & { path: { checkoutId: string } },
  trigger: 'payOnRamp' | 'rejectOnRamp',
) {
  const checkout = await checkoutOf(ctx);
  const settled = await settle(ctx, checkout.id, trigger);
  return { status: 200, body: { operationId: settled.id, status: settled.status, redirectUrl: checkout.redirect_url } };
}

async function creditStablecoin(ctx: CallContext, tenantId: string, userId: string, token: string, amount: number) {
  // Find-or-open must not run twice at once for one user and token (two on-ramps paid together, on several
  // instances too): the second would open a second wallet. A lock held to the end of the transaction.
  await ctx.sql.query('select pg_advisory_xact_lock(hashtext($1))', [`custody-wallet:${tenantId}:${userId}:${token}`]);
  const wallets = await ctx.sql.query<{ id: string }>(
    'select id from custody_wallets where tenant_id = $1 and user_id = $2 and token = $3 order by created_at limit 1',
    [tenantId, userId, token],
  );
  const walletId = wallets[0]?.id ?? (await openCustodyWallet(ctx, tenantId, userId, token, 'POLYGON')).id;
  const credited = await ctx.sql.query(
    'update custody_wallets set balance = balance + $2 where id = $1 and balance + $2 <= $3 returning id',
    [walletId, amount, MAX_BALANCE],
  );
  if (!credited.length)
    refuse(
      refusals.balanceLimit(`The custody wallet's balance would pass ${MAX_BALANCE}, the most the sandbox keeps.`),
    );
}

/** What the user is asked to do for each escalation (the sandbox's own words: the source shows none). */
const ESCALATION_MESSAGES: Record<string, string> = {
  FORM_URL: 'Fill in the form at the link to raise the limit.',
  QR_APP: 'Scan the QR code with the app to raise the limit.',
  VIDEO_KYC: 'Book a video identity check to raise the limit.',
  DOC_UPLOAD: 'Upload proof of funds to raise the limit.',
  NOTIFY_ONLY: 'The limit was passed; nothing to do, the operator was told.',
  BLOCK: 'Operations over this limit are blocked for this user.',
};

/** The 422 of an on-ramp over the user's tier, with a `tierEscalation` of `actionType`, expiring in a day. */
function tierRefusal(ctx: CallContext, message: string, actionType: string) {
  return refusals.tierLimitExceeded(message, {
    actionType,
    actionPayload: {},
    message: ESCALATION_MESSAGES[actionType],
    expiresAt: new Date(ctx.clock.now().getTime() + 86_400_000).toISOString(),
  });
}

/** What a trigger value of createOnRamp does to the on-ramp it made. */
export const outcomes = {
  createOnRamp: (ctx, operationId) => settle(ctx, operationId, 'rejectOnRamp'),
} satisfies Outcomes;

export const handlers: Handlers = {
  createOnRamp: async (ctx) => {
    const tenant = tenantOf(ctx);
    const userId = ctx.path.user_id;
    const user = await findUser(ctx.sql, tenant, userId);
    if (!user || (user !== 'client' && user.status !== 'approved'))
      refuse(refusals.userNotApproved('The user does not exist or is not approved.'));
    const b = ctx.body;
    const [origin, destinationToken] = [b.symbolOrigin ?? 'COP', b.symbolDestination ?? 'USDC'];
    if (!ENABLED_PAIRS.includes(`${origin}/${destinationToken}`))
      refuse(
        refusals.pairNotEnabled(
          `The pair ${origin}/${destinationToken} is not enabled; enabled: ${ENABLED_PAIRS.join(', ')}.`,
        ),
      );
    const wallet = (
      await ctx.sql.query<{ user_id: string; status: string }>(
        'select user_id, status from external_wallets where id = $1 and tenant_id = $2',
        [b.destination.externalWalletId, tenant.id],
      )
    )[0];
    if (!wallet) refuse(refusals.destinationNotRegistered('The destination wallet is not registered.'));
    if (wallet!.status !== 'APPROVED')
      refuse(refusals.destinationNotApproved('The destination wallet is not approved.'));
    if (wallet!.user_id !== userId) refuse(refusals.destinationNotOwned("The destination wallet is not the user's."));
    const paymentMethod: string = b.paymentMethod ?? 'DAVIPLATA';
    if (paymentMethod === 'PSE' && !BANKS.some((bank) => bank.code === b.bankCode))
      refuse(refusals.unknownBank('bankCode is not in the bank list.'));
    const trigger = triggerIn('createOnRamp', { body: b });
    // A trigger value (TIER_FORM_URL ... TIER_BLOCK): over the tier, with that escalation.
    if (trigger?.actionType) refuse(tierRefusal(ctx, 'The amount asks for an escalation', trigger.actionType));
    // Until setTierLimit, the tier allows up to MAX_BALANCE, the most a balance of the sandbox holds.
    const limit = user === 'client' || user.tier_limit === null ? MAX_BALANCE : Number(user.tier_limit);
    if (b.amount > limit)
      refuse(tierRefusal(ctx, `The amount is over the user's tier limit of ${limit} COP.`, 'DOC_UPLOAD'));
    const inverse = b.executionMode === 'INVERSE';
    if (inverse && !(await debit(ctx.sql, tenant.id, userId, 'COP', b.amount)))
      refuse(refusals.insufficientFunds("The user's COP balance does not cover the amount."));
    const now = ctx.clock.now();
    const id = randomUUID();
    const amountDestination = round(b.amount / COP_PER_STABLECOIN);
    // The sandbox's own deposit instructions (the source shows none), with its checkout page for the deposit.
    const checkoutId = `chk_${randomBytes(24).toString('base64url')}`;
    const bank =
      paymentMethod === 'PSE'
        ? { bankCode: b.bankCode, bankName: b.bankName ?? BANKS.find((x) => x.code === b.bankCode)!.name }
        : {};
    const depositInstructions = inverse
      ? {}
      : {
          paymentMethod,
          reference: `SBX-${id.slice(0, 8).toUpperCase()}`,
          amount: b.amount,
          currency: 'COP',
          ...bank,
          ...(b.phone ? { phone: b.phone } : {}),
          checkoutId,
          checkoutUrl: `${ctx.origin}/sandbox/checkout/${checkoutId}`,
        };
    const made = await createRecord(
      ctx,
      onRamps,
      ctx.operationId,
      async (to) => {
        const [row] = await ctx.sql.query<OnRampRow>(
          `insert into on_ramps (id, tenant_id, user_id, status, amount_destination, symbol_destination, record, created_at)
           values ($1, $2, $3, $4, $5, $6, '{}'::jsonb, $7) returning *`,
          [id, tenant.id, userId, to, amountDestination, destinationToken, now.toISOString()],
        );
        const record = {
          id,
          userId,
          numberCode: `ONR-${String(row!.seq).padStart(6, '0')}`,
          originId: userId,
          destinationId: b.destination.externalWalletId,
          symbolOrigin: origin,
          symbolDestination: destinationToken,
          amountOrigin: b.amount,
          amountDestination,
          rate: COP_PER_STABLECOIN,
          paymentMethod,
          status: to,
          direction: 'ONRAMP',
          registerDate: now.toISOString(),
          depositInstructions,
          treasuryItems: [],
          events: [],
        };
        await ctx.sql.query('update on_ramps set record = $2 where id = $1', [id, JSON.stringify(record)]);
        if (!inverse)
          await ctx.sql.query(
            'insert into on_ramp_checkouts (id, operation_id, tenant_id, redirect_url) values ($1, $2, $3, $4)',
            [checkoutId, id, tenant.id, b.redirectUrl ?? null],
          );
        return { ...row!, record };
      },
      inverse ? 'INVERSE' : 'NORMAL',
    );
    const operation = made.row.record;
    // A trigger value (PAYIN_REJECTED, or _LATER after its delay): answered PENDING_DEPOSIT, then rejected by
    // rejectOnRamp's path.
    if (!inverse && trigger?.transition === 'rejectOnRamp')
      await runOrSchedule(ctx, tenant.id, trigger, id, outcomes.createOnRamp);
    if (inverse) await creditStablecoin(ctx, tenant.id, userId, destinationToken, amountDestination);
    // depositInfo: present when the user must send funds (NORMAL), null otherwise (INVERSE, paid from the balance).
    const depositInfo = inverse
      ? null
      : { paymentMethod, quote: { rate: COP_PER_STABLECOIN, amountDestination }, depositInstructions };
    return { status: 201, body: { operation, tierEscalation: null, depositInfo } };
  },

  payOnRamp: async (ctx) => ({ status: 200, body: await settle(ctx, ctx.path.operationId!, ctx.operationId) }),
  rejectOnRamp: async (ctx) => ({ status: 200, body: await settle(ctx, ctx.path.operationId!, ctx.operationId) }),

  getCheckout: async (ctx) => {
    const c = await checkoutOf(ctx);
    const op = c.record;
    const instructions = (op.depositInstructions ?? {}) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return {
      status: 200,
      body: {
        checkoutId: c.checkout_id,
        operationId: c.id,
        clientId: c.tenant_id,
        numberCode: op.numberCode,
        amount: op.amountOrigin,
        currency: op.symbolOrigin,
        amountDestination: op.amountDestination,
        symbolDestination: op.symbolDestination,
        paymentMethod: op.paymentMethod,
        bankCode: text(instructions.bankCode),
        bankName: text(instructions.bankName),
        phone: text(instructions.phone),
        reference: String(instructions.reference ?? ''),
        redirectUrl: c.redirect_url,
        status: c.status,
      },
    };
  },
  payCheckout: (ctx) => checkoutOutcome(ctx, 'payOnRamp'),
  rejectCheckout: (ctx) => checkoutOutcome(ctx, 'rejectOnRamp'),
};
