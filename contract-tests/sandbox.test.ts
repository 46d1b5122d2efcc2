// `npm run contract:sandbox` within `npm test` (on PGlite in memory) and `npm run test:postgres` (on PostgreSQL,
// in the run's cluster): the contract suite, unchanged, against a fresh sandbox on the run's store, writes
// included. It passes, the sandbox gives no answer that breaks the description, and every documented cell
// (operation x status) is exercised, except, on PGlite, the 503s: PGlite runs inside the sandbox's process and
// cannot be down while the sandbox answers.
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../scripts/openapi/apis.js';
import { captureLogger } from '../src/testing/capture-logger.js';
import { type StoreName, storesUnderTest } from '../src/testing/sandbox-fixture.js';
import { runContractOnSandbox } from './sandbox-run.js';

const postgresUrl = inject('postgresUrl');

/** The documented cells a store cannot exercise. */
const UNEXERCISED: Record<StoreName, string[]> = { PGlite: ['503'], PostgreSQL: [] };

describe.concurrent('the contract suite against the sandbox', () => {
  it.each(storesUnderTest().map((store) => [store.name, UNEXERCISED[store.name], store] as const))(
    'passes on %s, exercising every documented cell but %j',
    async (name, unexercised, store) => {
      const logger = captureLogger();
      const run = await runContractOnSandbox({
        store: await store.options(),
        reportDir: join(repoRoot, 'reports', 'sandbox', name.toLowerCase()),
        postgresUrl: postgresUrl ?? undefined,
        capture: true,
        logger,
      });
      expect(run.violations, 'answers of the sandbox that break the description').toEqual([]);
      expect(run.code, run.output).toBe(0);
      expect(run.coverage, 'the suite wrote no coverage report').toBeDefined();
      const missing = run.coverage!.rows.flatMap((row) =>
        row.missing.map((status) => `${row.family} ${row.operationId} ${status}`),
      );
      expect(missing.filter((cell) => !unexercised.some((status) => cell.endsWith(` ${status}`)))).toEqual([]);
      expect(run.coverage!.covered).toBe(run.coverage!.cells - missing.length);
      // What the sandbox reported: on PostgreSQL only the outages the 503 recipes provoke (each call refused, the
      // delivery worker and the scheduled outcomes' pass waiting for the database, the sessions ended); on PGlite,
      // nothing.
      const outage =
        /^\[sandbox\] (\w+: the database is unavailable \(.+\)|delivery( worker)?[ :(].*|scheduled outcomes[ :(].*|PostgreSQL closed an idle connection \(.+\); it will be reopened\.)$/;
      expect(logger.lines.filter((line) => !outage.test(line))).toEqual([]);
      expect(logger.lines.some((line) => line.includes('the database is unavailable'))).toBe(name === 'PostgreSQL');
      console.log(
        `Contract suite against the sandbox on ${name}: ${run.coverage!.covered} of ${run.coverage!.cells} documented cells exercised.`,
      );
    },
    120_000,
  );
});
