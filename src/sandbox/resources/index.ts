// Every resource's migration and handlers, in dependency order.
import type { Sql } from '../db.js';
import type { Handlers } from '../handler.js';
import * as accounts from './accounts.js';
import * as kyc from './kyc.js';
import * as onramps from './onramps.js';
import * as overview from './overview.js';
import * as payouts from './payouts.js';
import { migration as rateLimitsMigration } from '../rate-limits.js';
import * as tenants from './tenants.js';
import * as users from './users.js';
import * as wallets from './wallets.js';
import * as webhooks from './webhooks.js';

const resources = { tenants, users, kyc, wallets, accounts, payouts, onramps, webhooks, overview };
// Rate-limit handlers are built by the server, which knows the operations that declare a 429.
const migrations = [...Object.values(resources).map((r) => r.migration), rateLimitsMigration];

export const allHandlers: Handlers = {};
for (const [name, resource] of Object.entries(resources)) {
  for (const [operationId, handler] of Object.entries(resource.handlers)) {
    if (allHandlers[operationId]) throw new Error(`Two handlers for ${operationId} (the second in resources/${name}.ts)`);
    allHandlers[operationId] = handler;
  }
}

/** Creates every table (idempotent: `create ... if not exists`). */
export async function migrate(db: { transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> }): Promise<void> {
  await db.transaction(async (tx) => {
    // Several instances on one PostgreSQL may start at once: one migrates at a time.
    await tx.query('select pg_advisory_xact_lock(7301)');
    for (const migration of migrations) {
      for (const statement of migration.split(';').map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
    }
  });
}

export { loadClockOffset } from './tenants.js';
