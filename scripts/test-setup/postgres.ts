// Vitest global setup: the stores the sandbox suites run on, from the config's `provide.stores` (vitest.config.ts:
// PGlite; vitest.postgres.config.ts: PostgreSQL), and, when PostgreSQL is one of them, one throwaway PostgreSQL
// cluster for the whole run (Debian's `postgresql`, started by src/testing/postgres.ts). A run that asks for
// PostgreSQL where it is not installed fails, saying what to install.
import type { TestProject } from 'vitest/node';
import { postgresUnavailable, startPostgres } from '../../src/testing/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The stores the sandbox suites run on in this run (src/testing/sandbox-fixture.ts). */
    stores: ('PGlite' | 'PostgreSQL')[];
    /** Admin URL of the run's PostgreSQL cluster, or null when there is none. */
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const stores = project.config.provide?.stores ?? ['PGlite'];
  project.provide('stores', stores);
  if (!stores.includes('PostgreSQL')) {
    project.provide('postgresUrl', null);
    return undefined;
  }
  const why = postgresUnavailable();
  if (why) throw new Error(`The suites on PostgreSQL need a PostgreSQL server, but ${why}.`);
  const cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
