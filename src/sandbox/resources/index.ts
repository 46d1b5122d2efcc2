// Every resource's migration and handlers, in dependency order.
import { createHash } from 'node:crypto';
import type { Sql } from '../db.js';
import type { Handlers } from '../handler.js';
import * as accounts from './accounts.js';
import * as kyc from './kyc.js';
import * as onramps from './onramps.js';
import * as overview from './overview.js';
import * as payouts from './payouts.js';
import { migration as eventsMigration } from '../events/store.js';
import { migration as rateLimitsMigration } from '../rate-limits.js';
import * as tenants from './tenants.js';
import * as users from './users.js';
import * as wallets from './wallets.js';
import * as webhooks from './webhooks.js';

const resources = { tenants, users, kyc, wallets, accounts, payouts, onramps, webhooks, overview };
// Rate-limit handlers are built by the server, which knows the operations that declare a 429.
/** Each resource's tables, as SQL statements separated by `;`, in the order they are made. */
export const migrations = [...Object.values(resources).map((r) => r.migration), eventsMigration, rateLimitsMigration];

export const allHandlers: Handlers = {};
for (const [name, resource] of Object.entries(resources)) {
  for (const [operationId, handler] of Object.entries(resource.handlers)) {
    if (allHandlers[operationId])
      throw new Error(`Two handlers for ${operationId} (the second in resources/${name}.ts)`);
    allHandlers[operationId] = handler;
  }
}

/** A digest of the migrations: a store that records the same one has every table already. */
export const migrationsDigest = createHash('sha256').update(migrations.join('\0')).digest('hex');

/**
 * Creates every table (idempotent: `create ... if not exists`), unless the store records that these very
 * migrations ran (`sandbox_schema`): then a start sends one select instead of every statement (about 0.25 s
 * on PGlite).
 */
export async function migrate(db: { transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> }): Promise<void> {
  await db.transaction(async (tx) => {
    // Several instances on one PostgreSQL may start at once: one migrates at a time.
    await tx.query('select pg_advisory_xact_lock(7301)');
    const [{ present } = { present: false }] = await tx.query<{ present: boolean }>(
      "select to_regclass('sandbox_schema') is not null as present",
    );
    if (present) {
      const [recorded] = await tx.query<{ digest: string }>('select digest from sandbox_schema');
      if (recorded?.digest === migrationsDigest) return;
    }
    for (const migration of migrations) {
      for (const statement of migration
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
    }
    await tx.query('create table if not exists sandbox_schema (digest text not null)');
    await tx.query('delete from sandbox_schema');
    await tx.query('insert into sandbox_schema (digest) values ($1)', [migrationsDigest]);
  });
}

export { loadClockOffset } from './tenants.js';
