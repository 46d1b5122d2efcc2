// `npm run test:postgres` runs every suite that uses the stores, found by what the files use, and npm test runs
// the same suites on PGlite alone: a file of PostgreSQL alone is left to the run on PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import base from '../../vitest.config.js';
import { storeSuiteFiles } from './store-suites.js';

/** npm test's folders and the suites it leaves to other commands (vitest.config.ts). */
const globs = base.test ?? {};
const repo = join(import.meta.dirname, '..', '..');

describe('the suites on PostgreSQL', () => {
  const root = mkdtempSync(join(tmpdir(), 'ramp-store-suites-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it('are the *.postgres.test.ts files and the files that run their suites on each store of the run', () => {
    // The calls are made up here, so that this file is not itself one that the scan finds.
    const call = (helper: string) => `${helper}('a suite', (store) => {});`;
    write('src/a/matrix.test.ts', call('forEachStore'));
    write('src/a/each.test.ts', `describe.each(${call('storesUnderTest').slice(0, -1)})`);
    write('src/a/mixed.test.ts', call('onPostgreSQL'));
    write('src/a/alone.postgres.test.ts', "describe('x', () => {});");
    write('src/a/pglite.test.ts', 'const sandbox = useSandbox();');
    write('src/a/browser.e2e.test.ts', call('forEachStore'));
    write('src/a/node_modules/dep/x.test.ts', call('forEachStore'));
    write('contract-tests/sandbox.test.ts', call('storesUnderTest'));
    expect(storeSuiteFiles(root, globs)).toEqual([
      'contract-tests/sandbox.test.ts',
      'src/a/alone.postgres.test.ts',
      'src/a/each.test.ts',
      'src/a/matrix.test.ts',
      'src/a/mixed.test.ts',
    ]);
  });

  it('include this repository’s journeys, contract suite on the sandbox and load test', () => {
    const files = storeSuiteFiles(repo, globs);
    expect(files).toEqual(
      expect.arrayContaining([
        'openapi/workflows/workflows.postgres.test.ts',
        'contract-tests/sandbox.test.ts',
        'scripts/bench/load.postgres.test.ts',
        'src/sandbox/resources/flow.test.ts',
      ]),
    );
  });

  it('are left out of npm test, which runs the store matrix on PGlite', () => {
    expect(base.test?.exclude).toContain('**/*.postgres.test.ts');
    expect(base.test?.provide).toEqual({ stores: ['PGlite'] });
    expect(storeSuiteFiles(repo, globs)).not.toContain('scripts/test-setup/store-suites.test.ts');
  });
});
