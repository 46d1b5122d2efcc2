// Tenants (clients), their credentials and tokens, and the sandbox clock.

import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pinnedClock } from '../core/clock.js';
import { type Handlers, type Tenant, tenantOf } from '../core/handler.js';
import type { InstanceState } from '../core/instance.js';
import { refusals, refuse } from '../core/refusals.js';
import { addClockOffset, resetClockOffset } from '../store/clock-offset.js';
import type { Db, Sql } from '../store/db.js';
import { PRUNE_EXPIRED_TOKENS } from '../store/quotas.js';
import { identifierTaken } from './identifiers.js';

/** Business tokens live 5 minutes of sandbox time (the source); v1 tokens 24 hours (the sandbox's choice: the source shows no lifetime). */
export const TOKEN_LIFETIME_SECONDS: Record<'business' | 'v1', number> = { business: 300, v1: 86_400 };

/** Who signs the sandbox's tokens (`iss`). */
export const TOKEN_ISSUER = 'ramp-api-sandbox';

/**
 * The sandbox's key for signing tokens (HMAC-SHA256), made once per database with 32 random bytes and kept in
 * it, so every instance on one PostgreSQL signs and accepts the same tokens. Never answered or logged.
 */
export async function ensureSigningKey(db: Sql): Promise<void> {
  await db.query('insert into sandbox_signing_key (id, secret) values (1, $1) on conflict (id) do nothing', [
    randomBytes(32).toString('base64url'),
  ]);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT (HS256) with `claims`, signed with `key`. */
export function signJwt(claims: Record<string, unknown>, key: string): string {
  const unsigned = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
  return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
}

const secret = () => randomBytes(24).toString('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Tokens looked up recently, kept for a few seconds of real time so reads need one query less. Sandbox-time
 * expiry is still checked on every call; `resetSandbox` empties it. Only on PGlite, which no other process
 * changes: on a shared PostgreSQL another instance's reset must reach this one at once, so nothing is kept.
 */
const CACHE_MS = 5_000;

export async function tenantForToken(
  db: Sql,
  tokenCache: InstanceState['tokens'],
  token: string,
  family: string,
  now: Date,
  cache = true,
): Promise<Tenant | null> {
  const cached = cache ? tokenCache.get(token) : undefined;
  if (cached && performance.now() - cached.cachedAt < CACHE_MS) {
    return cached.family === family && cached.expiresAt > now.getTime() ? cached.tenant : null;
  }
  const rows = await db.query<Tenant & { family: string; expires_at: Date | null }>(
    'select t.id, t.name, k.family, k.expires_at from tokens k join tenants t on t.id = k.tenant_id where k.token = $1',
    [token],
  );
  const row = rows[0];
  if (!row) return null;
  const entry = {
    tenant: { id: row.id, name: row.name },
    family: row.family,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : Infinity,
    cachedAt: performance.now(),
  };
  if (cache) tokenCache.set(token, entry);
  return entry.family === family && entry.expiresAt > now.getTime() ? entry.tenant : null;
}

export async function integrationRegisterOf(sql: Sql, tenantId: string): Promise<string> {
  const rows = await sql.query<{ integration_register: string }>(
    'select integration_register from tenants where id = $1',
    [tenantId],
  );
  return rows[0]!.integration_register;
}

async function issueToken(sql: Sql, body: unknown, family: 'business' | 'v1', now: Date) {
  const { clientId, clientSecret } = (body ?? {}) as Record<string, unknown>;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    refuse(
      refusals.invalidCredentials(
        family === 'business' ? 400 : 401,
        'Send the tenant credentials `{ clientId, clientSecret }` from createTenant.',
      ),
    );
  }
  const column = family === 'business' ? 'business_secret' : 'v1_secret';
  const rows = /^[0-9a-f-]{36}$/i.test(String(clientId))
    ? await sql.query<{ id: string; secret: string }>(`select id, ${column} as secret from tenants where id = $1`, [
        clientId,
      ])
    : [];
  if (!rows[0] || !sameText(rows[0].secret, String(clientSecret)))
    refuse(refusals.invalidCredentials(401, 'These credentials belong to no tenant.'));
  // A signed JWT: `sub` the client, `aud` the family, `iat` and `exp` in sandbox time, `jti` unique per token.
  // The token is also stored, so resetSandbox (which removes the tenant) ends it at once.
  const lifetime = TOKEN_LIFETIME_SECONDS[family];
  const iat = Math.floor(now.getTime() / 1000);
  const key = (await sql.query<{ secret: string }>('select secret from sandbox_signing_key where id = 1'))[0]!.secret;
  const token = signJwt(
    { iss: TOKEN_ISSUER, sub: rows[0]!.id, aud: family, iat, exp: iat + lifetime, jti: randomUUID() },
    key,
  );
  const expires = new Date((iat + lifetime) * 1000);
  // Expired tokens are of no use: removed as new ones are made, they give back their share of the quota.
  await sql.query(PRUNE_EXPIRED_TOKENS, [rows[0]!.id, now.toISOString()]);
  await sql.query('insert into tokens (token, tenant_id, family, expires_at) values ($1, $2, $3, $4)', [
    token,
    rows[0]!.id,
    family,
    expires.toISOString(),
  ]);
  return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: lifetime } };
}

export const handlers: Handlers = {
  createToken: async (ctx) => issueToken(ctx.sql, ctx.body, 'business', ctx.clock.now()),
  createClientToken: async (ctx) => issueToken(ctx.sql, ctx.body, 'v1', ctx.clock.now()),

  getClientInfo: async (ctx) => {
    const tenant = tenantOf(ctx);
    return { status: 200, body: { clientId: tenant.id, name: tenant.name } };
  },

  createTenant: async (ctx) => {
    // A random ID cannot in practice be one a client chose before; checked all the same, as chosen ones are.
    let id = randomUUID();
    while (await identifierTaken(ctx, id)) id = randomUUID();
    const name = typeof ctx.body?.name === 'string' ? ctx.body.name : `Tenant ${id.slice(0, 8)}`;
    const row = { business: secret(), v1: secret(), register: `sbx-int-${randomBytes(9).toString('base64url')}` };
    await ctx.sql.query(
      'insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at) values ($1, $2, $3, $4, $5, $6)',
      [id, name, row.business, row.v1, row.register, ctx.clock.now().toISOString()],
    );
    return {
      status: 201,
      body: {
        clientId: id,
        name,
        businessCredentials: { clientId: id, clientSecret: row.business },
        v1Credentials: { clientId: id, clientSecret: row.v1 },
        integrationRegister: row.register,
      },
    };
  },

  resetSandbox: async (ctx) => {
    const removed = await ctx.sql.query('delete from tenants returning id');
    ctx.instance.tokens.clear();
    await resetClockOffset(ctx.sql);
    await ctx.sql.query('delete from rate_counts');
    await ctx.sql.query('delete from rate_limits');
    return { status: 200, body: { tenantsRemoved: removed.length }, committed: () => ctx.clock.setOffset(0) };
  },

  // Who answers here: a client pointed at a port where another service answers can tell.
  getSandbox: async (ctx) => ({ status: 200, body: { service: 'ramp-api-sandbox', origin: ctx.origin }, keep: false }),

  // Sandbox time moves with the real clock: the answer is never kept for the next read.
  getClock: async (ctx) => ({
    status: 200,
    body: { now: ctx.clock.now().toISOString(), offsetSeconds: ctx.clock.offsetMs / 1000 },
    keep: false,
  }),

  advanceClock: async (ctx) => {
    const offset = await addClockOffset(ctx.sql, Math.round(Number(ctx.body.seconds) * 1000));
    // The process's clock moves once the store's has (transaction.ts): a refused advance moves neither.
    return {
      status: 200,
      body: { now: pinnedClock(ctx.clock, offset).now().toISOString(), offsetSeconds: offset / 1000 },
      committed: () => ctx.clock.setOffset(offset),
    };
  },
};

export type { Db };
