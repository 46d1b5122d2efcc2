// Registered users, their compliance state, fiat balances and on-ramp tier limits.
import { randomUUID } from 'node:crypto';
import {
  type BodyOf,
  type CallContext,
  type Handlers,
  type Operations,
  type Tenant,
  tenantOf,
} from '../core/handler.js';
import { type Outcomes, runOrSchedule } from '../core/outcomes.js';
import { refusals, refuse, requireInScope } from '../core/refusals.js';
import { userStates } from '../core/states.js';
import { createRecord, moveRecord, type Stateful } from '../core/transition.js';
import { triggerIn } from '../core/triggers.js';
import type { Sql } from '../store/db.js';
import { identifierTaken } from './identifiers.js';
import { integrationRegisterOf } from './tenants.js';

export interface UserRow {
  id: string;
  tenant_id: string;
  status: string;
  tier_limit: string | null;
  record: { person?: Record<string, unknown> } & Record<string, unknown>;
  created_at: Date | string;
}

/** A user's person as registered: full name (given names, then surnames) and identity document. */
export function personOf(user: UserRow) {
  const p = user.record.person ?? {};
  return {
    name: [p.firstName, p.middleName, p.firstSurname, p.lastName]
      .filter((part) => typeof part === 'string' && part.trim())
      .join(' '),
    documentType: String(p.identificationType ?? '').toUpperCase(),
    documentNumber: String(p.identificationNro ?? ''),
  };
}

/** Whether `id` has the form of a UUID, the only form a record ID of the sandbox takes. */
export const isUuid = (id: unknown): id is string =>
  typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * A user of the tenant: `'client'` for the tenant's own ID (which acts as an approved user), null if unknown.
 * The v1 paths type `user_id` as a plain string: one that is not a UUID names no record, so it is unknown.
 */
export async function findUser(sql: Sql, tenant: Tenant, userId: string): Promise<UserRow | 'client' | null> {
  if (userId === tenant.id) return 'client';
  if (!isUuid(userId)) return null;
  const rows = await sql.query<UserRow>('select * from users where id = $1 and tenant_id = $2', [userId, tenant.id]);
  return rows[0] ?? null;
}

/**
 * The acting user of a custody or transfer call: the client itself or an approved user (the source).
 * Unknown users and other tenants' users are refused like unapproved ones, with 403, never with their data.
 */
export async function requireApprovedUser(sql: Sql, tenant: Tenant, userId: string): Promise<UserRow | 'client'> {
  const user = await findUser(sql, tenant, userId);
  if (!user) return refuse(refusals.userNotApproved('The user does not exist for this client or is not approved.'));
  if (user !== 'client' && user.status !== 'approved') refuse(refusals.userNotApproved('The user is not approved.'));
  return user;
}

/** The tenant's own clientId in a Business path: another client's ID is refused with 403. */
export function requireOwnClient(ctx: CallContext & { path: { clientId: string } }): Tenant {
  const tenant = tenantOf(ctx);
  if (ctx.path.clientId !== tenant.id) refuse(refusals.forbidden('The token belongs to another client.'));
  return tenant;
}

/** A balance is found by its tenant and its owner (the client or a user): never by an ID alone. */
export async function balanceOf(sql: Sql, tenantId: string, ownerId: string, currency: string): Promise<number> {
  const rows = await sql.query<{ amount: string }>(
    'select amount from balances where tenant_id = $1 and owner_id = $2 and currency = $3',
    [tenantId, ownerId, currency],
  );
  return rows[0] ? Number(rows[0].amount) : 0;
}

/**
 * The most a balance (a user's fiat, a custody wallet's token) may hold: the sandbox's own limit, so that every
 * balance and amount it answers stays an exact JSON number. Funding past it is refused.
 */
export const MAX_BALANCE = 1e15;

/**
 * Credits `amount`; null (nothing changed) when the balance would pass `limit` (MAX_BALANCE for new money; a
 * refund of money debited before passes null, and is never refused).
 */
export async function credit(
  sql: Sql,
  tenantId: string,
  ownerId: string,
  currency: string,
  amount: number,
  limit: number | null = MAX_BALANCE,
): Promise<number | null> {
  const rows = await sql.query<{ amount: string }>(
    `insert into balances (tenant_id, owner_id, currency, amount) select $1, $2, $3, $4 where $5::numeric is null or $4::numeric <= $5
     on conflict (tenant_id, owner_id, currency) do update set amount = balances.amount + excluded.amount
       where $5::numeric is null or balances.amount + excluded.amount <= $5 returning amount`,
    [tenantId, ownerId, currency, amount, limit],
  );
  return rows[0] ? Number(rows[0].amount) : null;
}

/** Debits atomically (one statement, safe under concurrency); false when the balance is short. */
export async function debit(
  sql: Sql,
  tenantId: string,
  ownerId: string,
  currency: string,
  amount: number,
): Promise<boolean> {
  const rows = await sql.query(
    'update balances set amount = amount - $4 where tenant_id = $1 and owner_id = $2 and currency = $3 and amount >= $4 returning amount',
    [tenantId, ownerId, currency, amount],
  );
  return rows.length === 1;
}

/**
 * A phone number as the service answers it, in international format (the source): `+`, the country code and
 * the number, digits only. A number sent without a country code is taken to be Colombian (+57), the country
 * of the service's fiat (COP); `00` before the country code is the international prefix. Text with no digit
 * is answered as sent.
 */
function internationalPhone(sent: string): string {
  const digits = sent.replace(/\D/g, '');
  if (!digits) return sent;
  if (sent.trim().startsWith('+')) return `+${digits}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.length === 12 && digits.startsWith('57')) return `+${digits}`;
  return `+57${digits}`;
}

function registeredUser(id: string, body: BodyOf<Operations['registerUser']>, now: Date) {
  const personId = randomUUID();
  const contact = (dataTypeContact: 'email' | 'phone', dataValue: string) => ({
    dataTypeContact,
    dataValue,
    isVerified: false,
    personId,
  });
  // The two SKUs the source has observed, typed `number`; the sandbox's value is 1 (no multiplier), as text like
  // the description's example.
  const multiplier = (additionalInfoTypeSku: string, infoName: string) => ({
    additionalInfoTypeSku,
    infoName,
    infoType: 'number',
    infoValue: '1',
    personId,
  });
  return {
    person: {
      id: personId,
      isJuridic: false,
      identificationType: String(body.document_type).toLowerCase(),
      identificationNro: body.document_number,
      verificateDigit: null,
      firstName: body.first_name,
      firstSurname: body.first_surname,
      lastName: body.second_surname,
      middleName: body.second_name,
      businessName: null,
      tradeName: null,
      pep: body.is_pep,
      nationality: body.document_issuance_country,
      contactsData: [contact('email', body.email), contact('phone', internationalPhone(body.cell_phone_number))],
      additionalInfo: [
        multiplier('onrampmultiplier', 'Multiplicador on-ramp'),
        multiplier('offrampmultiplier', 'Multiplicador off-ramp'),
      ],
      personFiles: [],
      persons: [],
    },
    status: 'pending',
    complianceStatus: 'pending',
    id,
    isVip: false,
    tradeName: null,
    clientType: null,
    constitutionDate: now.toISOString(),
    constitutionCountryId: null,
    constitutionCity: body.home_info?.city_home ?? '',
    constitutionState: body.home_info?.department ?? '',
    countriesOperation: [],
  };
}

export const userView = (row: UserRow) => ({ ...row.record, status: row.status, complianceStatus: row.status });

export const users: Stateful<UserRow> = {
  name: 'user',
  machine: userStates,
  unknown: 'No registered user has this ID.',
  lock: async (sql, id) => (await sql.query<UserRow>('select * from users where id = $1 for update', [id]))[0],
  tenantOf: (u) => u.tenant_id,
  stateOf: (u) => u.status,
  save: async (sql, u, to) => void (await sql.query('update users set status = $2 where id = $1', [u.id, to])),
  view: (u, to) => userView({ ...u, status: to }),
};

/** Approves or rejects user `userId` per the state table, with its events; the control API's answer. */
export async function decideUser(ctx: CallContext, userId: string, trigger: 'approveUser' | 'rejectUser') {
  const { row, transition } = await moveRecord(ctx, users, userId, trigger);
  return { userId: row.id, clientId: row.tenant_id, status: transition.to, complianceStatus: transition.to };
}

/** What a trigger value of registerUser does to the user it registered. */
export const outcomes = { registerUser: (ctx, userId) => decideUser(ctx, userId, 'rejectUser') } satisfies Outcomes;

async function userOrClient(sql: Sql, userId: string): Promise<{ tenantId: string } | null> {
  const rows = await sql.query<{ tenant_id: string }>(
    'select tenant_id from users where id = $1 union all select id from tenants where id = $1',
    [userId],
  );
  return rows[0] ? { tenantId: rows[0].tenant_id } : null;
}

export const handlers: Handlers = {
  registerUser: async (ctx) => {
    const tenant = tenantOf(ctx);
    if (ctx.headers['x-integration-register'] !== (await integrationRegisterOf(ctx.sql, tenant.id))) {
      refuse(refusals.invalidIntegration("The x-integration-register value is not this client's."));
    }
    const id = ctx.body.external_user_id ?? randomUUID();
    // A chosen ID that names any record (another tenant's clientId, a user, a wallet...) is taken: it would alias it.
    if (ctx.body.external_user_id !== undefined && (await identifierTaken(ctx, id))) {
      refuse(refusals.userExists('This external_user_id is already in use; choose another.'));
    }
    const now = ctx.clock.now();
    const record = registeredUser(id, ctx.body, now);
    await createRecord(ctx, users, ctx.operationId, async (to) => {
      // One statement decides, so two registrations of one ID at once (on several instances too) get one 201.
      const inserted = await ctx.sql.query<UserRow>(
        'insert into users (id, tenant_id, status, record, created_at) values ($1, $2, $3, $4, $5) on conflict (id) do nothing returning *',
        [id, tenant.id, to, JSON.stringify(record), now.toISOString()],
      );
      return inserted[0] ?? refuse(refusals.userExists('A user with this external_user_id is already registered.'));
    });
    // A trigger value (USER_REJECTED, or _LATER after its delay): answered pending, then rejected by rejectUser's path.
    const trigger = triggerIn('registerUser', { body: ctx.body });
    if (trigger?.transition === 'rejectUser') await runOrSchedule(ctx, tenant.id, trigger, id, outcomes.registerUser);
    return { status: 201, body: { user_id: id, status: 'success', message: 'User registered', data: record } };
  },

  listClientUsers: async (ctx) => {
    const tenant = requireOwnClient(ctx);
    const rows = await ctx.sql.query<UserRow>('select * from users where tenant_id = $1 order by created_at', [
      tenant.id,
    ]);
    return { status: 200, body: { users: rows.map(userView) } };
  },

  listAdminUsers: async (ctx) => {
    const rows = await ctx.sql.query<UserRow>('select * from users where tenant_id = $1 order by created_at', [
      tenantOf(ctx).id,
    ]);
    return { status: 200, body: { users: rows.map(userView) } };
  },

  approveUser: async (ctx) => ({ status: 200, body: await decideUser(ctx, ctx.path.userId, ctx.operationId) }),
  rejectUser: async (ctx) => ({ status: 200, body: await decideUser(ctx, ctx.path.userId, ctx.operationId) }),

  fundUser: async (ctx) => {
    const owner =
      (await userOrClient(ctx.sql, ctx.path.userId)) ?? refuse(refusals.notFound('No user or client has this ID.'));
    requireInScope(ctx.tenant, owner.tenantId, 'No user or client has this ID.');
    const balance = await credit(ctx.sql, owner.tenantId, ctx.path.userId, ctx.body.currency, ctx.body.amount);
    if (balance === null)
      refuse(refusals.balanceLimit(`The balance would pass ${MAX_BALANCE}, the most the sandbox keeps.`));
    return { status: 200, body: { userId: ctx.path.userId, currency: ctx.body.currency, balance } };
  },

  setTierLimit: async (ctx) => {
    const rows = await ctx.sql.query(
      'update users set tier_limit = $2 where id = $1 and ($3::uuid is null or tenant_id = $3) returning id',
      [ctx.path.userId, ctx.body.maxAmount, ctx.tenant?.id ?? null],
    );
    if (!rows.length) refuse(refusals.notFound('No registered user has this ID.'));
    return { status: 200, body: { userId: ctx.path.userId, maxAmount: ctx.body.maxAmount } };
  },
};
