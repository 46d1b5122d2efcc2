import { defineConfig } from 'vitest/config';
import { storeSuiteFiles } from './scripts/test-setup/store-suites.js';
import base from './vitest.config.js';

// `npm run test:postgres`: the sandbox suites of `npm test` on a PostgreSQL server instead of PGlite (a throwaway
// cluster of Debian's `postgresql`, which the global setup starts and stops), with the suites that only
// PostgreSQL has (several instances on one database, its outages, the load test) and the journeys under `redocly
// respect` (npm test runs them with the journey console's runner). Apart from `npm test` so that it stays fast; CI
// runs it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: storeSuiteFiles(import.meta.dirname, base.test ?? {}),
    exclude: ['**/node_modules/**'],
    provide: { stores: ['PostgreSQL'] },
    // The ledger of the source document is npm test's: a row's test file runs there.
    reporters: ['dot', './scripts/test-setup/summary-reporter.ts'],
  },
});
