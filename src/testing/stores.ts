// The stores the sandbox suites run on: PGlite in memory always, and PostgreSQL when the run's global setup
// (scripts/test-setup/postgres.ts) started a cluster. Each PostgreSQL use gets a database of its own.
import { createDatabase } from './postgres.js';
import { inject } from 'vitest';

export { createDatabase };

export type StoreOptions = { memory: true } | { databaseUrl: string };

export interface StoreUnderTest {
  name: 'PGlite' | 'PostgreSQL';
  /** Options for startSandbox: a fresh, empty store each call. */
  options(): Promise<StoreOptions>;
}

export function storesUnderTest(): StoreUnderTest[] {
  const adminUrl = inject('postgresUrl');
  const stores: StoreUnderTest[] = [{ name: 'PGlite', options: async () => ({ memory: true }) }];
  if (adminUrl)
    stores.push({ name: 'PostgreSQL', options: async () => ({ databaseUrl: await createDatabase(adminUrl) }) });
  return stores;
}
