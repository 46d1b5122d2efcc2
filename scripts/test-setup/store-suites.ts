// The test files `npm run test:postgres` runs: those of PostgreSQL alone (`*.postgres.test.ts`) and those that run
// their suites on each store of the run (src/testing/sandbox-fixture.ts: forEachStore, storesUnderTest,
// onPostgreSQL), read from the files themselves, so that a new suite on the stores is run there without a list to
// keep.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders npm test's files live in (vitest.config.ts's `include`). */
const ROOTS = ['openapi', 'scripts', 'src', 'contract-tests'];

const USES_THE_STORES = /\b(forEachStore|storesUnderTest|onPostgreSQL)\(/;

/** The `*.test.ts` files under `dir`, outside node_modules/ and dist/. */
function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : testFiles(root, path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files of the suites on PostgreSQL, relative to `root`, sorted. */
export function storeSuiteFiles(root: string): string[] {
  return ROOTS.filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => testFiles(root, dir))
    .filter((file) => !/\.(e2e|interrupt)\.test\.ts$/.test(file))
    .filter(
      (file) => file.endsWith('.postgres.test.ts') || USES_THE_STORES.test(readFileSync(join(root, file), 'utf8')),
    )
    .sort();
}
