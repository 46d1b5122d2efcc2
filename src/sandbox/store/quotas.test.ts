// The quota the database enforces (sandbox_charge_tenant, as the migrations leave it: charged at commit) is the
// one the sandbox answers and documents (TENANT_QUOTA), and it covers every table that has a tenant's rows;
// charging it never holds the tenant's row for the rest of a transaction.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPostgresDatabase, onPostgreSQL } from '../../testing/sandbox-fixture.js';
import { type Db, openPglite, openPostgres } from './db.js';
import { migrate, schema } from './migrate.js';
import { OUTCOME_ALLOWANCE, OUTCOME_SETTING, TENANT_QUOTA } from './quotas.js';

describe('the tenant quota, as the migrations leave it', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite({ memory: true, schemaDigest: schema.digest });
    await migrate(db);
  });
  afterAll(() => db?.close());

  it('holds the numbers of TENANT_QUOTA, and OUTCOME_ALLOWANCE past them for an outcome', async () => {
    const [charge] = await db.query<{ text: string }>(
      `select pg_get_functiondef('sandbox_charge_tenant'::regproc) as text`,
    );
    const { records, bytes } = TENANT_QUOTA;
    expect(charge!.text).toContain(`current_setting('${OUTCOME_SETTING}', true)`);
    expect(charge!.text).toContain(`then ${records + OUTCOME_ALLOWANCE.records} else ${records} end`);
    expect(charge!.text).toContain(`then ${bytes + OUTCOME_ALLOWANCE.bytes} else ${bytes} end`);
  });

  it('charges every table with a tenant_id column, when the transaction commits', async () => {
    const withTenant = await db.query<{ name: string }>(
      `select table_name as name from information_schema.columns
        where column_name = 'tenant_id' and table_schema = 'public' order by 1`,
    );
    const charged = await db.query<{ name: string; deferred: boolean }>(
      `select c.relname as name, t.tgdeferrable and t.tginitdeferred as deferred
         from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgfoid = 'sandbox_charge_tenant'::regproc and not t.tgisinternal order by 1`,
    );
    expect(withTenant.length).toBeGreaterThan(10);
    expect(charged).toEqual(withTenant.map(({ name }) => ({ name, deferred: true })));
  });
});

onPostgreSQL('the tenant quota on PostgreSQL', () => {
  it('lets a tenant’s second transaction write while its first, which wrote already, is still open', async () => {
    const url = await newPostgresDatabase();
    const db = await openPostgres(url);
    const { default: pg } = await import('pg');
    const [first, second] = [new pg.Client(url), new pg.Client(url)];
    try {
      await migrate(db);
      const tenant = randomUUID();
      await db.query(
        `insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at)
         values ($1, 'Quota', 'b', 'v', 'i', now())`,
        [tenant],
      );
      await Promise.all([first.connect(), second.connect()]);
      const user = `insert into users (id, tenant_id, status, record, created_at)
                    values (gen_random_uuid(), '${tenant}', 'PENDING', '{}', now())`;
      await first.query('begin');
      await first.query(user);
      // Charged at the insert, the tenant's row stayed locked until the first committed: this waited, then failed.
      await second.query(`set lock_timeout = '2s'`);
      await expect(second.query(user)).resolves.toBeDefined();
      await first.query('commit');
      const [row] = await db.query<{ records: string }>('select records from tenants where id = $1', [tenant]);
      expect(Number(row!.records)).toBe(2);
    } finally {
      await Promise.all([first.end(), second.end(), db.close()]);
    }
  });
});
