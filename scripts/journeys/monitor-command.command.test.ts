// `npm run journeys:report -- FILE` as a process: a file that is not the JSON results of a run (the JUnit XML of
// the same run, given by mistake) ends it with one line naming the file and the file it wants, and status 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'journeys-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run journeys:report -- FILE` as that runs it (tsx), without npm in front of it. */
function report(file: string) {
  const script = ['--import', 'tsx', join(import.meta.dirname, 'monitor-command.ts'), file];
  const run = spawnSync(process.execPath, script, { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run journeys:report given the JUnit XML', () => {
  it('names the file and the file it wants, in one line, and exits with 2', () => {
    const xml = join(dir, 'journeys.xml');
    writeFileSync(xml, '<?xml version="1.0"?><testsuites/>');
    expect(report(xml)).toEqual({
      status: 2,
      stdout: '',
      stderr: `${xml} is not the JSON of npm run journeys -- --json FILE: not JSON (at line 1, column 1); give the file --json writes, not the --junit XML.\n`,
    });
  });
});

describe('npm run journeys:report given results with a field of the wrong type', () => {
  it('names the file and the field, in one line, and exits with 2', () => {
    const file = join(dir, 'malformed.json');
    const step = { step: 'pay', workflowId: 'w', status: 'failed', ms: 1, attempts: 1, failed: null };
    const workflow = { file: 'a.arazzo.yaml', workflowId: 'w', status: 'failed', ms: 1, steps: [step] };
    const results = {
      target: 'sandbox',
      startedAt: '2026-11-28T12:00:00.000Z',
      ms: 1,
      ok: false,
      workflows: [workflow],
    };
    writeFileSync(file, JSON.stringify(results));
    expect(report(file)).toEqual({
      status: 2,
      stdout: '',
      stderr: `${file} is not the JSON of npm run journeys -- --json FILE: workflows[0].steps[0].failed is not a list.\n`,
    });
  });
});
