// `npm run contract:sandbox`: the contract suite against a fresh sandbox on each store (PGlite in memory, then
// PostgreSQL in a throwaway cluster when Debian's `postgresql` is installed; under CI a missing PostgreSQL is a
// failure), as against a real deployment, writes included (contract-tests/sandbox-run.ts), with the coverage per
// store. `npm test` runs the same on PGlite and `npm run test:postgres` on PostgreSQL
// (contract-tests/sandbox.test.ts).
import { join } from 'node:path';
import { buildAll } from '../scripts/build/build-all.js';
import { repoRoot } from '../scripts/openapi/apis.js';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { createDatabase, type PostgresCluster, postgresUnavailable, startPostgres } from '../src/testing/postgres.js';
import { runContractOnSandbox } from './sandbox-run.js';

// A signal ends the process through exit, so the cluster's exit hook stops it (pg_ctl puts it out of reach).
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));
await buildAll();
const why = postgresUnavailable();
if (why && process.env.CI) {
  console.error(`contract:sandbox runs on PostgreSQL too under CI, but ${why}.`);
  process.exit(1);
}
// Started once, before both runs; the PostgreSQL run's 503 recipes reach it as its admin (RAMP_TEST_POSTGRES_URL).
const cluster: PostgresCluster | undefined = why ? undefined : await startPostgres();
const results: { store: string; code: number; report: string; cells: string }[] = [];
try {
  for (const store of cluster ? (['PGlite', 'PostgreSQL'] as const) : (['PGlite'] as const)) {
    console.log(`\n=== Contract suite against the sandbox on ${store} ===\n`);
    const reportDir = join(repoRoot, 'reports', 'sandbox', store.toLowerCase());
    const options: SandboxOptions =
      store === 'PostgreSQL' ? { databaseUrl: await createDatabase(cluster!.url, 'contract') } : { memory: true };
    const run = await runContractOnSandbox({
      store: options,
      reportDir,
      postgresUrl: cluster?.url,
      args: process.argv.slice(2),
    });
    if (run.violations.length)
      console.error(
        `The sandbox gave ${run.violations.length} answers that break the description:\n${run.violations.join('\n')}`,
      );
    const cells = run.coverage
      ? `${run.coverage.covered} of ${run.coverage.cells} documented cells exercised`
      : 'no coverage report';
    results.push({
      store,
      code: run.code,
      report: join('reports', 'sandbox', store.toLowerCase(), 'contract-coverage.md'),
      cells,
    });
  }
} finally {
  cluster?.stop();
}
console.log('\nContract suite against the sandbox, per store:');
for (const { store, code, report, cells } of results)
  console.log(`  ${store.padEnd(10)} ${code === 0 ? 'passed' : 'FAILED'}: ${cells} (${report})`);
if (why) console.log(`  PostgreSQL skipped: ${why}.`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
