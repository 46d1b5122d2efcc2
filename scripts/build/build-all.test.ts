// What the build leaves in this repository beside the packages: their commands run through node_modules/.bin
// (`npx ramp-api ...`, `npx ramp-api-sandbox ...`, as `npm run bench` starts them), on a fresh clone too, where
// npm installed the workspace before the commands were built and so linked none of them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { emptyDist } from './build-all.js';

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

describe("emptyDist, which the build runs on each package's dist/ first", () => {
  it('removes every file but those kept, and the folders left empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-empty-dist-'));
    try {
      const files = ['index.js', 'old-layout/moved.js', 'old-layout/moved.d.ts', 'openapi/v1.json', 'snapshot.tar.gz'];
      for (const file of files) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), file);
      }
      emptyDist(dir, ['openapi/v1.json', 'snapshot.tar.gz', 'not-there.json']);
      expect(readdirSync(dir, { recursive: true }).map(String).sort()).toEqual([
        'openapi',
        'openapi/v1.json',
        'snapshot.tar.gz',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
