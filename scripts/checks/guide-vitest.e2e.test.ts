// "The sandbox in tests" with vitest, as the guide writes it: its config, global setup and two test files (a
// completed payout, a rejected one), written where their first lines say into a project with the first-call
// guide's tsconfig.json (which writes dist/), compiled with tsc (strict, no cast needed) and run with vitest: two
// test files, two tests, each run once (not again from tsc's copy in dist/); the completed payout's event arrives,
// and the rejected one is answered PENDING and shows REJECTED in the tenant's state. These blocks need vitest, which the consumer project
// of scripts/checks/consumer.e2e.test.ts does not install: that test leaves them to this one. Both run in
// `npm run test:e2e`, with the browser tests: what a user does outside this repository.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { markedBlock } from '../site/guides.js';
import { VITEST_BLOCKS, writeVitestRecipe } from './vitest-recipe.js';

const run = promisify(execFile);
// Inside the repository, so that `ramp-api`, `ramp-api-sandbox` and `vitest` resolve from its node_modules.
const project = join(repoRoot, 'dist', `guide-vitest-${process.pid}`);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the sandbox in tests, with vitest, as the guide writes it', () => {
  it('type-checks with no cast and runs: a global setup, a tenant per test, each outcome as the guide says', async () => {
    mkdirSync(project, { recursive: true });
    const codes = VITEST_BLOCKS.map((name) => markedBlock(name, 'ts').code);
    // No cast anywhere: the exported types carry what the examples need.
    expect(codes.join('\n')).not.toMatch(/ as [A-Z{]|<[A-Z]\w*>[a-z(]/);
    const files = writeVitestRecipe(project);
    expect(files).toEqual([
      'vitest.config.ts',
      'src/sandbox.global-setup.ts',
      'src/payout.test.ts',
      'src/payout-rejected.test.ts',
    ]);
    // The first-call guide's project: type module, and its tsconfig.json, which checks src/ and writes dist/.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(project, 'tsconfig.json'), markedBlock('consumer-tsconfig', 'json').code);
    const tsc = join(repoRoot, 'scripts', 'toolchain', 'node_modules', '.bin', 'tsc');
    await run(tsc, ['-p', project], { cwd: project }).catch((error: { stdout?: string }) => {
      throw new Error(`tsc refused the guide's vitest files:\n${error.stdout ?? String(error)}`);
    });
    const env = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'SANDBOX_URL'),
      ),
      NO_COLOR: '1',
    };
    const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const { stdout } = await run(process.execPath, [vitest, 'run', '--root', project], { cwd: project, env }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`vitest failed on the guide's files:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    // tsc wrote its copies into dist/, and the global setup and the test are among what it checked.
    expect(existsSync(join(project, 'dist', 'payout.test.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'payout-rejected.test.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'sandbox.global-setup.js'))).toBe(true);
    expect(stdout).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
  }, 120_000);
});
