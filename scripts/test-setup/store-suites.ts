// The test files `npm run test:postgres` runs: among the files `npm test`'s config takes (its folders, less the
// suites it leaves to other commands), those of PostgreSQL alone (`*.postgres.test.ts`) and those that run their
// suites on each store of the run (src/testing/sandbox-fixture.ts: forEachStore, storesUnderTest, onPostgreSQL),
// read from the files themselves, so that a new suite on the stores is run there without a list to keep.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const POSTGRES_ALONE = '.postgres.test.ts';
const USES_THE_STORES = /\b(forEachStore|storesUnderTest|onPostgreSQL)\(/;

/** What of a vitest config's `include` and `exclude` this reads: `dir/**` patterns and `**\/*suffix` patterns. */
export interface TestFileGlobs {
  include?: string[];
  exclude?: string[];
}

/** The `*.test.ts` files under `dir`, outside node_modules/ and dist/. */
function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : testFiles(root, path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files of the suites on PostgreSQL, relative to `root`, sorted; `globs` are npm test's (vitest.config.ts). */
export function storeSuiteFiles(root: string, globs: TestFileGlobs): string[] {
  const folders = [...new Set((globs.include ?? []).map((pattern) => pattern.split('/')[0]!))];
  const apart = (globs.exclude ?? [])
    .filter((pattern) => pattern.startsWith('**/*.'))
    .map((pattern) => pattern.slice('**/*'.length))
    .filter((suffix) => suffix !== POSTGRES_ALONE);
  return folders
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => testFiles(root, dir))
    .filter((file) => !apart.some((suffix) => file.endsWith(suffix)))
    .filter((file) => file.endsWith(POSTGRES_ALONE) || USES_THE_STORES.test(readFileSync(join(root, file), 'utf8')))
    .sort();
}
