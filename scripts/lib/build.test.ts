// What the build leaves in this repository beside the packages: their commands run through node_modules/.bin
// (`npx ramp-api ...`, `npx ramp-api-sandbox ...`, as `npm run bench` starts them), on a fresh clone too, where
// npm installed the workspace before the commands were built and so linked none of them.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './apis.js';

const run = promisify(execFile);

describe("after the build (the tests' global setup)", () => {
  it.each([
    ['ramp-api', ['--help'], /Usage: ramp-api sandbox/],
    ['ramp-api-sandbox', ['--help'], /--memory/],
  ])('%s runs from node_modules/.bin', async (command, args, says) => {
    const { stdout, stderr } = await run(join(repoRoot, 'node_modules', '.bin', command), args, { cwd: repoRoot });
    expect(stdout + stderr).toMatch(says);
  });
});
