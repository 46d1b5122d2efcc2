// What the dashboard reads: the tenants (listTenants) and everything one tenant holds (getTenantState), from
// the other resources' tables. A tenant's own token reaches its own tenant only; another tenant's answers 404
// exactly as an unknown one does. Credentials and tokens are never shown.

import type { HandlerContext, Handlers } from '../core/handler.js';
import { refusals, refuse } from '../core/refusals.js';
import type { Sql } from '../store/db.js';
import { personOf, type UserRow } from './users.js';
import { type WalletRow, walletView } from './wallets.js';
import { type WebhookRow, webhookView } from './webhooks.js';

// No tables of its own.

const iso = (value: Date | string) => new Date(value).toISOString();
const NOT_FOUND = 'No tenant has this client ID.';

type When = Date | string;
interface TenantRow {
  id: string;
  name: string;
  created_at: When;
}
/** The columns of each table this module reads (the tables are the other resources'). */
interface Tables {
  users: UserRow;
  balances: { owner_id: string; currency: string; amount: string };
  custody_wallets: WalletRow;
  bank_accounts: {
    id: string;
    user_id: string;
    status: string;
    bank_name: string;
    account_number: string;
    account_type: string;
    holder_name: string;
  };
  external_wallets: { id: string; user_id: string; token: string; network: string; status: string };
  payouts: {
    id: string;
    user_id: string;
    account_id: string;
    amount: string;
    currency: string;
    payment_method: string;
    status: string;
    created_at: When;
  };
  on_ramps: {
    id: string;
    user_id: string;
    amount_destination: string;
    symbol_destination: string;
    status: string;
    created_at: When;
    record: {
      numberCode?: unknown;
      amountOrigin?: unknown;
      symbolOrigin?: unknown;
      paymentMethod?: unknown;
      depositInstructions?: { checkoutUrl?: unknown };
    };
  };
  wallet_transfers: {
    id: string;
    user_id: string;
    origin_wallet: string;
    destination_wallet: string;
    amount: string;
    token: string;
    status: string;
    created_at: When;
  };
  business_webhooks: WebhookRow;
  integration_endpoints: {
    id: string;
    name: string;
    config: { url?: unknown } | null;
    trigger_event: string | null;
    is_active: boolean;
    created_at: When;
  };
}
const rows = <Table extends keyof Tables>(sql: Sql, table: Table, order: string, tenantId: string) =>
  sql.query<Tables[Table]>(`select * from ${table} where tenant_id = $1 order by ${order}`, [tenantId]);

async function tenantState(ctx: HandlerContext, tenantId: string) {
  if (ctx.tenant && ctx.tenant.id !== tenantId) refuse(refusals.notFound(NOT_FOUND));
  const tenant =
    (await ctx.sql.query<TenantRow>('select id, name, created_at from tenants where id = $1', [tenantId]))[0] ??
    refuse(refusals.notFound(NOT_FOUND));
  const [users, balances, wallets, accounts, external, payouts, onRamps, transfers, webhooks, endpoints] = [
    await rows(ctx.sql, 'users', 'created_at, id', tenantId),
    await rows(ctx.sql, 'balances', 'owner_id, currency', tenantId),
    await rows(ctx.sql, 'custody_wallets', 'created_at, id', tenantId),
    await rows(ctx.sql, 'bank_accounts', 'created_at, id', tenantId),
    await rows(ctx.sql, 'external_wallets', 'id', tenantId),
    await rows(ctx.sql, 'payouts', 'created_at, id', tenantId),
    await rows(ctx.sql, 'on_ramps', 'created_at, seq', tenantId),
    await rows(ctx.sql, 'wallet_transfers', 'created_at, seq', tenantId),
    await rows(ctx.sql, 'business_webhooks', 'created_at, id', tenantId),
    await rows(ctx.sql, 'integration_endpoints', 'created_at, id', tenantId),
  ];
  return {
    tenant: { clientId: tenant.id, name: tenant.name, createdAt: iso(tenant.created_at) },
    users: users.map((u) => {
      const person = u.record.person ?? {};
      const contacts = (Array.isArray(person.contactsData) ? person.contactsData : []) as {
        dataTypeContact?: unknown;
        dataValue?: unknown;
      }[];
      const email = contacts.find((c) => c.dataTypeContact === 'email')?.dataValue ?? '';
      const { documentType, documentNumber } = personOf(u);
      return {
        userId: u.id,
        status: u.status,
        firstName: String(person.firstName ?? ''),
        middleName: person.middleName ?? null,
        firstSurname: String(person.firstSurname ?? ''),
        lastName: person.lastName ?? null,
        documentType,
        documentNumber,
        email: String(email),
        registeredAt: iso(u.created_at),
      };
    }),
    balances: balances.map((b) => ({ userId: b.owner_id, currency: b.currency, balance: Number(b.amount) })),
    custodyWallets: wallets.map((w) => {
      const view = walletView(w);
      return {
        id: w.id,
        userId: w.user_id,
        token: w.token,
        network: w.network,
        wallet: view.wallet,
        status: w.status,
        balance: String(Number(w.balance)),
      };
    }),
    bankAccounts: accounts.map((a) => ({
      accountId: a.id,
      userId: a.user_id,
      status: a.status,
      bankName: a.bank_name,
      accountNumber: a.account_number,
      accountType: a.account_type,
      accountHolderName: a.holder_name,
    })),
    externalWallets: external.map((e) => ({
      externalWalletId: e.id,
      userId: e.user_id,
      token: e.token,
      network: e.network,
      status: e.status,
    })),
    payouts: payouts.map((p) => ({
      id: p.id,
      userId: p.user_id,
      destinationId: p.account_id,
      amount: Number(p.amount),
      currency: p.currency,
      paymentMethod: p.payment_method,
      status: p.status,
      createdAt: iso(p.created_at),
    })),
    onRamps: onRamps.map((o) => ({
      id: o.id,
      userId: o.user_id,
      numberCode: String(o.record.numberCode ?? ''),
      amountOrigin: Number(o.record.amountOrigin),
      symbolOrigin: String(o.record.symbolOrigin ?? ''),
      amountDestination: Number(o.amount_destination),
      symbolDestination: o.symbol_destination,
      paymentMethod: String(o.record.paymentMethod ?? ''),
      status: o.status,
      checkoutUrl:
        typeof o.record.depositInstructions?.checkoutUrl === 'string' ? o.record.depositInstructions.checkoutUrl : null,
      createdAt: iso(o.created_at),
    })),
    transfers: transfers.map((t) => ({
      id: t.id,
      userId: t.user_id,
      walletOriginId: t.origin_wallet,
      walletDestinationId: t.destination_wallet,
      amount: Number(t.amount),
      token: t.token,
      status: t.status,
      createdAt: iso(t.created_at),
    })),
    webhooks: webhooks.map(webhookView),
    endpoints: endpoints.map((e) => ({
      id: e.id,
      name: e.name,
      url: String(e.config?.url ?? ''),
      triggerEvent: e.trigger_event ?? null,
      isActive: e.is_active,
      registerDate: iso(e.created_at),
    })),
  };
}

/** The field that holds each list's own record ID (`id` for the lists not named). */
const OWN_ID: Record<string, string> = {
  users: 'userId',
  balances: 'userId',
  bankAccounts: 'accountId',
  externalWallets: 'externalWalletId',
};

/** The state with only the records whose own ID is `id` in each of its lists (getTenantState's `record`). */
export function onlyRecord<State extends object>(state: State, id: string): State {
  return Object.fromEntries(
    Object.entries(state).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.filter((r: Record<string, unknown>) => r[OWN_ID[key] ?? 'id'] === id) : value,
    ]),
  ) as State;
}

export const handlers: Handlers = {
  listTenants: async (ctx) => {
    const found = ctx.tenant
      ? await ctx.sql.query<TenantRow>('select id, name, created_at from tenants where id = $1', [ctx.tenant.id])
      : await ctx.sql.query<TenantRow>('select id, name, created_at from tenants order by created_at, id');
    return {
      status: 200,
      body: { tenants: found.map((t) => ({ clientId: t.id, name: t.name, createdAt: iso(t.created_at) })) },
    };
  },

  getTenantState: async (ctx) => {
    const state = await tenantState(ctx, ctx.path.tenantId!);
    const record = ctx.query.record;
    return { status: 200, body: record === undefined ? state : onlyRecord(state, String(record)) };
  },
};
