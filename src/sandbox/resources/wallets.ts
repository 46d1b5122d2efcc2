// Custody wallets (with the sandbox's ledger of their balances), external wallets, and wallet transfers.
import { randomBytes, randomUUID } from 'node:crypto';
import { registerDate } from '../core/clock.js';
import type { CallContext, Handlers } from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse, requireInScope } from '../core/refusals.js';
import { custodyWalletStates, walletTransferStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { triggerIn } from '../core/triggers.js';
import { identifierTaken } from './identifiers.js';
import { isUuid, MAX_BALANCE, requireApprovedUser, requireOwnClient } from './users.js';

/** The sandbox's token and network records (ids are the sandbox's own; the service's differ per deployment). */
export const TOKENS: Record<string, number> = { USDC: 1, USDT: 2 };
const NETWORKS: Record<string, number> = { POLYGON: 1, SUI: 2 };
const CUSTODIAN = { code: 'SANDBOX', id: 1, name: 'Ramp sandbox custody', status: true };
const MAX_TRANSFERS = 10; // the source: at most 10, newest first

export interface WalletRow {
  id: string;
  tenant_id: string;
  user_id: string;
  token: string;
  network: string;
  address: string;
  status: string;
  balance: string;
  created_at: Date;
}

/** A numeric column as decimal text without an exponent or trailing zeros (`1e-7` is `0.0000001`, `2.500000` is `2.5`). */
export function decimalText(value: string | number): string {
  const text =
    typeof value === 'number'
      ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
      : value;
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Epoch milliseconds of the start of `date` (`YYYY-MM-DD`, UTC) plus `days`, kept inside PostgreSQL's timestamp range. */
function dayStartMs(date: string, days = 0): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const start = new Date(Date.UTC(2000, month - 1, day + days));
  start.setUTCFullYear(year, month - 1, day + days);
  // PostgreSQL timestamps run from 4713 BC to 294276 AD; a bound outside is the same as the nearest end.
  return Math.min(Math.max(start.getTime(), -210_000_000_000_000), 9_000_000_000_000_000);
}

const maskAddress = (address: string) => `${address.slice(0, 6)}****${address.slice(-4)}`;

export function walletView(w: WalletRow) {
  return {
    id: w.id,
    wallet: maskAddress(w.address),
    supportedToken: { id: TOKENS[w.token] ?? 0, token: w.token, status: true },
    supportedNetwork: { id: NETWORKS[w.network] ?? 0, name: w.network, status: true },
    supportedCustodian: CUSTODIAN,
    status: w.status,
    isCustodial: true,
    registerDate: registerDate(new Date(w.created_at)),
    userId: w.user_id,
  };
}

const custodyWallets: Stateful<WalletRow> = {
  name: 'custody wallet',
  machine: custodyWalletStates,
  unknown: 'No custody wallet has this ID.',
  lock: async (sql, id) =>
    (await sql.query<WalletRow>('select * from custody_wallets where id = $1 for update', [id]))[0],
  tenantOf: (w) => w.tenant_id,
  stateOf: (w) => w.status,
  save: async (sql, w, to) =>
    void (await sql.query('update custody_wallets set status = $2 where id = $1', [w.id, to])),
  view: (w, to) => walletView({ ...w, status: to }),
};

export async function openCustodyWallet(
  ctx: CallContext,
  tenantId: string,
  userId: string,
  token: string,
  network: string,
): Promise<WalletRow> {
  const { row } = await createRecord(ctx, custodyWallets, 'createCustodyWallet', async (to) => {
    const rows = await ctx.sql.query<WalletRow>(
      `insert into custody_wallets (id, tenant_id, user_id, token, network, address, status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
      [
        randomUUID(),
        tenantId,
        userId,
        token,
        network,
        `0x${randomBytes(20).toString('hex')}`,
        to,
        ctx.clock.now().toISOString(),
      ],
    );
    return rows[0]!;
  });
  return row;
}

interface TransferRow {
  id: string;
  seq: number;
  tenant_id: string;
  user_id: string;
  origin_wallet: string;
  destination_wallet: string;
  destination_tenant: string;
  amount: string;
  token: string;
  status: string;
  created_at: Date;
}

function transferView(t: TransferRow) {
  const amount = Number(t.amount);
  return {
    id: t.id,
    walletTransferNumber: `WT-${String(t.seq).padStart(6, '0')}`,
    walletTransferType: 'custody_to_custody',
    trackType: 'internal',
    status: t.status,
    operationStatus: t.status,
    isGroup: false,
    parentId: null,
    clientId: t.tenant_id,
    originClientId: t.tenant_id,
    destinationClientId: t.destination_tenant,
    walletOriginId: t.origin_wallet,
    walletDestinationId: t.destination_wallet,
    amountSent: amount,
    amountReceived: amount,
    symbolTypeSent: t.token,
    symbolTypeReceived: t.token,
    registerDate: registerDate(new Date(t.created_at)),
  };
}

const walletTransfers: Stateful<TransferRow> = {
  name: 'wallet transfer',
  machine: walletTransferStates,
  unknown: 'No wallet transfer has this ID.',
  lock: async (sql, id) =>
    (await sql.query<TransferRow>('select * from wallet_transfers where id = $1 for update', [id]))[0],
  tenantOf: (t) => t.tenant_id,
  stateOf: (t) => t.status,
  save: async (sql, t, to) =>
    void (await sql.query('update wallet_transfers set status = $2 where id = $1', [t.id, to])),
  view: (t, to) => transferView({ ...t, status: to }),
};

/** Completes a transfer (the destination receives the amount) or cancels it (the origin gets it back). */
async function settleTransfer(
  ctx: CallContext,
  transferId: string,
  trigger: 'completeWalletTransfer' | 'cancelWalletTransfer',
) {
  const { row, transition } = await moveRecord(ctx, walletTransfers, transferId, trigger, async (t) => {
    const receiver = trigger === 'completeWalletTransfer' ? t.destination_wallet : t.origin_wallet;
    await ctx.sql.query('update custody_wallets set balance = balance + $2 where id = $1', [receiver, t.amount]);
  });
  return { status: 200, body: { id: row.id, status: transition.to } };
}

/** What a trigger value of createWalletTransfer does to the transfer it made. */
export const outcomes = {
  createWalletTransfer: (ctx, transferId) => settleTransfer(ctx, transferId, 'cancelWalletTransfer'),
} satisfies Outcomes;

export const handlers: Handlers = {
  createCustodyWallet: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    await requireApprovedUser(ctx.sql, tenant, ctx.path.userId);
    const token = String(ctx.body.token).toUpperCase();
    if (!(token in TOKENS))
      refuse(refusals.tokenNotSupported(`The sandbox holds ${Object.keys(TOKENS).join(' and ')} only.`));
    const wallet = await openCustodyWallet(ctx, tenant.id, ctx.path.userId, token, ctx.body.network ?? 'POLYGON');
    return { status: 200, body: walletView(wallet) };
  },

  listCustodyWallets: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    await requireApprovedUser(ctx.sql, tenant, ctx.path.userId);
    const rows = await ctx.sql.query<WalletRow>(
      'select * from custody_wallets where tenant_id = $1 and user_id = $2 order by created_at',
      [tenant.id, ctx.path.userId],
    );
    return { status: 200, body: rows.map(walletView) };
  },

  getCustodyWalletBalance: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    await requireApprovedUser(ctx.sql, tenant, ctx.path.userId);
    const rows = await ctx.sql.query<WalletRow>(
      'select * from custody_wallets where id = $1 and tenant_id = $2 and user_id = $3',
      [ctx.path.walletId, tenant.id, ctx.path.userId],
    );
    const wallet = rows[0] ?? refuse(refusals.notFound('No custody wallet of this user has this ID.'));
    return { status: 200, body: { balance: decimalText(wallet.balance), token: wallet.token } };
  },

  listWalletTransfers: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    await requireApprovedUser(ctx.sql, tenant, ctx.path.userId);
    const where = ['tenant_id = $1', 'user_id = $2'];
    const params: unknown[] = [tenant.id, ctx.path.userId];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (ctx.query.status !== undefined) add('status = ?', ctx.query.status);
    if (ctx.query.originWallet !== undefined) add('origin_wallet::text = ?', ctx.query.originWallet);
    // A day's bounds in epoch milliseconds, computed here: any date the description allows (year 0 included, which
    // PostgreSQL's date type refuses) is a valid bound, before or after every transfer.
    if (ctx.query.startDate !== undefined)
      add('created_at >= to_timestamp(?::double precision / 1000)', dayStartMs(String(ctx.query.startDate)));
    if (ctx.query.finalDate !== undefined)
      add('created_at < to_timestamp(?::double precision / 1000)', dayStartMs(String(ctx.query.finalDate), 1));
    const rows = await ctx.sql.query<TransferRow>(
      `select * from wallet_transfers where ${where.join(' and ')} order by created_at desc, seq desc limit ${MAX_TRANSFERS}`,
      params,
    );
    return { status: 200, body: rows.map(transferView) };
  },

  // Sandbox's own body (the source shows none): { walletOriginId, walletDestinationId, amount }.
  createWalletTransfer: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    await requireApprovedUser(ctx.sql, tenant, ctx.path.userId);
    const { walletOriginId, walletDestinationId, amount } = ctx.body as Record<string, unknown>;
    if (!isUuid(walletOriginId) || !isUuid(walletDestinationId) || typeof amount !== 'number' || !(amount > 0)) {
      refuse(
        refusals.invalidRequest(
          400,
          'The sandbox expects { walletOriginId, walletDestinationId (custody wallet IDs), amount > 0 }.',
        ),
      );
    }
    const origin = (
      await ctx.sql.query<WalletRow>(
        'select * from custody_wallets where id = $1 and tenant_id = $2 and user_id = $3 for update',
        [walletOriginId, tenant.id, ctx.path.userId],
      )
    )[0];
    if (!origin) return refuse(refusals.forbidden('The origin wallet is not a custody wallet of this user.'));
    // Another client's wallet is no destination (the sandbox's choice): it is answered as an unknown one.
    const destination = (
      await ctx.sql.query<WalletRow>('select * from custody_wallets where id = $1 and tenant_id = $2', [
        walletDestinationId,
        tenant.id,
      ])
    )[0];
    if (!destination || destination.token !== origin.token)
      refuse(
        refusals.invalidDestination('The destination is not a custody wallet of this client with the same token.'),
      );
    const debited = await ctx.sql.query(
      'update custody_wallets set balance = balance - $2 where id = $1 and balance >= $2 returning id',
      [origin.id, amount],
    );
    if (!debited.length) refuse(refusals.insufficientFunds('The origin wallet does not hold the amount.'));
    const { row } = await createRecord(ctx, walletTransfers, ctx.operationId, async (to) => {
      const rows = await ctx.sql.query<TransferRow>(
        `insert into wallet_transfers (id, tenant_id, user_id, origin_wallet, destination_wallet, destination_tenant, amount, token, status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *`,
        [
          randomUUID(),
          tenant.id,
          ctx.path.userId,
          origin.id,
          destination!.id,
          destination!.tenant_id,
          amount,
          origin.token,
          to,
          ctx.clock.now().toISOString(),
        ],
      );
      return rows[0]!;
    });
    // A trigger value (TRANSFER_CANCELLED, or _LATER after its delay): answered pending, then cancelled by
    // cancelWalletTransfer's path.
    const trigger = triggerIn('createWalletTransfer', { body: ctx.body });
    if (trigger?.transition === 'cancelWalletTransfer')
      await runOrSchedule(ctx, row.tenant_id, trigger, row.id, outcomes.createWalletTransfer);
    return { status: 200, body: transferView(row) };
  },

  fundWallet: async (ctx) => {
    const found = await ctx.sql.query<WalletRow>(
      'select * from custody_wallets where id = $1 and ($2::uuid is null or tenant_id = $2) for update',
      [ctx.path.walletId, ctx.tenant?.id ?? null],
    );
    if (!found[0]) refuse(refusals.notFound('No custody wallet has this ID.'));
    const rows = await ctx.sql.query<WalletRow>(
      'update custody_wallets set balance = balance + $2 where id = $1 and balance + $2 <= $3 returning *',
      [ctx.path.walletId, ctx.body.amount, MAX_BALANCE],
    );
    const wallet =
      rows[0] ?? refuse(refusals.balanceLimit(`The balance would pass ${MAX_BALANCE}, the most the sandbox keeps.`));
    return { status: 200, body: { walletId: wallet.id, token: wallet.token, balance: decimalText(wallet.balance) } };
  },

  createExternalWallet: async (ctx) => {
    const owner = (
      await ctx.sql.query<{ tenant_id: string }>('select tenant_id from users where id = $1', [ctx.body.userId])
    )[0];
    if (!owner) return refuse(refusals.notFound('No registered user has this ID.'));
    requireInScope(ctx.tenant, owner.tenant_id, 'No registered user has this ID.');
    if (ctx.body.externalWalletId !== undefined && (await identifierTaken(ctx, ctx.body.externalWalletId))) {
      refuse(refusals.conflict('This externalWalletId is already in use; choose another.'));
    }
    const wallet = {
      id: ctx.body.externalWalletId ?? randomUUID(),
      token: ctx.body.token ?? 'USDC',
      network: ctx.body.network ?? 'POLYGON',
      status: ctx.body.status ?? 'APPROVED',
    };
    const inserted = await ctx.sql.query(
      'insert into external_wallets (id, tenant_id, user_id, token, network, status) values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing returning id',
      [wallet.id, owner.tenant_id, ctx.body.userId, wallet.token, wallet.network, wallet.status],
    );
    if (!inserted.length) refuse(refusals.conflict('An external wallet with this ID exists.'));
    return {
      status: 201,
      body: {
        externalWalletId: wallet.id,
        userId: ctx.body.userId,
        token: wallet.token,
        network: wallet.network,
        status: wallet.status,
      },
    };
  },

  completeWalletTransfer: (ctx) => settleTransfer(ctx, ctx.path.transferId, ctx.operationId),
  cancelWalletTransfer: (ctx) => settleTransfer(ctx, ctx.path.transferId, ctx.operationId),
};
