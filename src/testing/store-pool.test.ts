// The fixture's PGlite stores, kept between sandboxes: a store given back after a sandbox wrote to it is, table by
// table and sequence by sequence, a new store; the next sandbox on it starts as on a new one; a store whose tables
// changed is not kept.
import { describe, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../client/index.js';
import { createSandboxClient } from '../client/sandbox/client.js';
import { type Db, openPglite } from '../sandbox/store/db.js';
import { schema } from '../sandbox/store/migrate.js';
import { sandboxInTest } from './sandbox-fixture.js';
import { fundedExampleUser } from './sandbox-users.js';
import { emptyStore, giveBack, takeStore } from './store-pool.js';

/** Every table's rows and every sequence's position, as text to compare. */
async function everything(db: Db): Promise<Record<string, unknown>> {
  const tables = await db.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  const seen: Record<string, unknown> = {};
  for (const { name } of tables)
    seen[name] = (await db.query<{ row: string }>(`select t::text as row from "${name}" t order by 1`)).map(
      (r) => r.row,
    );
  seen['(sequences)'] = await db.query(
    "select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1",
  );
  return seen;
}

describe("the fixture's stores in memory", () => {
  it('are given back, after a sandbox wrote to them, as a new store: every row and sequence as a new one has', async () => {
    const sandbox = await sandboxInTest();
    const tenant = await orThrow(
      createSandboxClient({ baseUrl: sandbox.url }).createTenant({ body: { name: 'Used' } }),
    );
    const { userId, accountId } = await fundedExampleUser(sandbox.url, tenant, 10_000);
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
    await orThrow(
      v1.createPayout({
        params: { path: { user_id: userId } },
        body: { amount: 1000, currency: 'COP', destinationId: accountId },
      }),
    );
    const used = sandbox.db;
    expect(Object.values(await everything(used)).some((rows) => JSON.stringify(rows).includes(tenant.clientId))).toBe(
      true,
    );
    await sandbox.close();

    const fresh = await openPglite({ memory: true, schemaDigest: schema.digest });
    try {
      const again = await takeStore();
      expect(again).toBe(used);
      try {
        expect(await everything(again)).toEqual(await everything(fresh));
      } finally {
        await giveBack(again);
      }
    } finally {
      await fresh.close();
    }
  });

  it('start the next sandbox as a new store would: a new signing key, the clock at its start, no tenant', async () => {
    const first = await sandboxInTest();
    const key = async (db: Db) => (await db.query<{ secret: string }>('select secret from sandbox_signing_key'))[0];
    const firstKey = await key(first.db);
    await orThrow(createSandboxClient({ baseUrl: first.url }).advanceClock({ body: { seconds: 3600 } }));
    await first.close();

    const second = await sandboxInTest();
    expect(second.db).toBe(first.db);
    expect(await key(second.db)).not.toEqual(firstKey);
    const control = createSandboxClient({ baseUrl: second.url });
    expect((await orThrow(control.getClock())).offsetSeconds).toBe(0);
    expect(await second.db.query('select id from tenants')).toEqual([]);
  });

  it('are closed, not kept, when their tables changed', async () => {
    const db = await takeStore();
    try {
      await db.query('create table left_behind (id int)');
      await expect(emptyStore(db)).rejects.toThrow('The store no longer has the tables it started with.');
    } finally {
      await giveBack(db);
    }
    const next = await takeStore();
    try {
      expect(next).not.toBe(db);
    } finally {
      await giveBack(next);
    }
  });
});
