// Vitest global setup: one throwaway PostgreSQL cluster for the whole run (Debian's `postgresql`, started by
// src/testing/postgres.ts), so the sandbox suites run on PostgreSQL as well as on PGlite. Where PostgreSQL is
// not installed those suites say why and run on PGlite only, except under CI, where that is a failure.
import type { TestProject } from 'vitest/node';
import { postgresUnavailable, startPostgres } from '../../src/testing/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's PostgreSQL cluster, or null when there is none. */
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  // A caller that already runs a cluster (npm run contract:sandbox) passes its admin URL: nothing to start.
  if (process.env.RAMP_TEST_POSTGRES_URL) {
    project.provide('postgresUrl', process.env.RAMP_TEST_POSTGRES_URL);
    return undefined;
  }
  const why = postgresUnavailable();
  if (why) {
    if (process.env.CI) throw new Error(`CI runs the sandbox suites on PostgreSQL too, but ${why}.`);
    console.warn(`PostgreSQL suites skipped: ${why}.`);
    project.provide('postgresUrl', null);
    return undefined;
  }
  const cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
