// The stores the sandbox suites run on: PGlite in memory always, and PostgreSQL when the run's global setup
// (scripts/test-setup/postgres.ts) started a cluster. Each PostgreSQL use gets a database of its own.
import pg from 'pg';
import { inject } from 'vitest';

export type StoreOptions = { memory: true } | { databaseUrl: string };

export interface StoreUnderTest {
  name: 'PGlite' | 'PostgreSQL';
  /** Options for startSandbox: a fresh, empty store each call. */
  options(): Promise<StoreOptions>;
}

let databases = 0;

/** A new empty database in the cluster at `adminUrl`; its URL. */
export async function createDatabase(adminUrl: string, prefix = 'sandbox'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${++databases}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export function storesUnderTest(): StoreUnderTest[] {
  const adminUrl = inject('postgresUrl');
  const stores: StoreUnderTest[] = [{ name: 'PGlite', options: async () => ({ memory: true }) }];
  if (adminUrl) stores.push({ name: 'PostgreSQL', options: async () => ({ databaseUrl: await createDatabase(adminUrl) }) });
  return stores;
}
