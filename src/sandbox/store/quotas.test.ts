// The quota the database enforces (the trigger of migrations/0012_tenant_quotas.sql) is the one the sandbox
// answers and documents (TENANT_QUOTA), and it covers every table that has a tenant's rows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './migrate.js';
import { TENANT_QUOTA } from './quotas.js';

const sql = readFileSync(join(MIGRATIONS_DIR, '0012_tenant_quotas.sql'), 'utf8');

describe('the tenant quota migration', () => {
  it('holds the numbers of TENANT_QUOTA', () => {
    expect(sql).toContain(`records < ${TENANT_QUOTA.records} `);
    expect(sql).toContain(`<= ${TENANT_QUOTA.bytes};`);
  });

  it('charges every table with a tenant_id column', () => {
    const all = readdirSync(MIGRATIONS_DIR)
      .filter((name) => /^\d{4}_.*\.sql$/.test(name))
      .map((name) => readFileSync(join(MIGRATIONS_DIR, name), 'utf8'))
      .join('\n');
    const withTenant = [...all.matchAll(/create table (\w+) \(([^;]*?)\n\);/g)]
      .filter((m) => /\btenant_id uuid\b/.test(m[2]!))
      .map((m) => m[1]!);
    expect(withTenant.length).toBeGreaterThan(10);
    const charged = [...all.matchAll(/after insert on (\w+) for each row/g)].map((m) => m[1]!);
    expect(charged.sort()).toEqual(withTenant.sort());
  });
});
