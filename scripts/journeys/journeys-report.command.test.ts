// `npm run journeys:report -- FILE` as a process: a file that is not the JSON results of a run (the JUnit XML of
// the same run, given by mistake) ends it with one line naming the file and the file it wants, and status 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'journeys-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run journeys:report given the JUnit XML', () => {
  it('names the file and the file it wants, in one line, and exits with 2', () => {
    const xml = join(dir, 'journeys.xml');
    writeFileSync(xml, '<?xml version="1.0"?><testsuites/>');
    // The script as `npm run journeys:report` runs it (tsx), without npm in front of it.
    const script = ['--import', 'tsx', join(import.meta.dirname, 'journeys-report.ts'), xml];
    const run = spawnSync(process.execPath, script, { encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 2,
      stdout: '',
      stderr: `${xml} is not the JSON of npm run journeys -- --json FILE: give the file --json writes, not the --junit XML.\n`,
    });
  });
});
