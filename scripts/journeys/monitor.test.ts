import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JourneyResults, StepResult } from '../../src/sandbox/journeys/results.js';
import { monitorReport, readRuns } from './monitor.js';

const dir = mkdtempSync(join(tmpdir(), 'journeys-monitor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const step = (name: string, ms: number, failed?: string): StepResult => ({
  step: name,
  workflowId: 'payoutCompleted',
  status: failed ? 'failed' : 'passed',
  ms,
  attempts: 1,
  httpStatus: failed ? 422 : 201,
  failed: failed ? [{ check: 'success criteria check', condition: failed, message: '' }] : [],
});
const run = (startedAt: string, pay: StepResult): JourneyResults => ({
  target: 'deployment',
  startedAt,
  ms: 20_000,
  ok: pay.status === 'passed',
  workflows: [
    {
      file: 'payout.arazzo.yaml',
      workflowId: 'payoutCompleted',
      status: pay.status,
      ms: 900,
      steps: [step('user / v1Token', 100), pay],
    },
  ],
});

describe('the monitoring page of several runs', () => {
  it("reads a folder of runs oldest first and shows each step's times and failures across them", () => {
    writeFileSync(
      join(dir, 'b.json'),
      JSON.stringify(run('2026-11-28T10:00:00.000Z', step('pay', 300, '$statusCode == 201'))),
    );
    writeFileSync(join(dir, 'a.json'), JSON.stringify(run('2026-11-28T09:00:00.000Z', step('pay', 200))));
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify(run('2026-11-28T11:00:00.000Z', { ...step('pay', 500), attempts: 2 })),
    );
    const runs = readRuns([dir]);
    expect(runs.map((r) => r.results.startedAt.slice(11, 13))).toEqual(['09', '10', '11']);
    const page = monitorReport(runs);
    expect(page).toContain('# Journeys across 3 runs');
    expect(page).toContain('| 2 | 2026-11-28T10:00:00.000Z | deployment | 0 | 1 | 20.0 s |');
    expect(page).toContain(
      '| payout.arazzo.yaml / payoutCompleted | pay | 3 of 3 | run 2 | run 3: 2 attempts | 300 | 500 | 500 |',
    );
    expect(page).toContain(
      '| payout.arazzo.yaml / payoutCompleted | user / v1Token | 3 of 3 | 0 |  | 100 | 100 | 100 |',
    );
    expect(page).toContain(
      '- run 2 (2026-11-28T10:00:00.000Z): payout.arazzo.yaml / payoutCompleted / pay (422): `$statusCode == 201` does not hold',
    );
  });

  it('fences a multi-line message in a code block no backtick run in it can close', () => {
    const frame = '> 1 | a\n    | ^\n```\nbreak out';
    const failed = {
      ...step('pay', 300),
      status: 'failed' as const,
      failed: [{ check: 'schema check', message: frame }],
    };
    const page = monitorReport([{ name: 'x.json', results: run('2026-11-28T12:00:00.000Z', failed) }]);
    expect(page).toContain(
      '/ pay (201): schema check:\n\n  ````text\n  > 1 | a\n      | ^\n  ```\n  break out\n  ````\n',
    );
  });

  it('names the file given that is not results JSON, and the file it wants, in one line', () => {
    const xml = join(dir, 'journeys.xml');
    writeFileSync(xml, '<?xml version="1.0"?><testsuites/>');
    const wanted = `${xml} is not the JSON of npm run journeys -- --json FILE: give the file --json writes, not the --junit XML.`;
    expect(() => readRuns([xml])).toThrow(wanted);
  });

  it('names a file that is not the results of a run', () => {
    writeFileSync(join(dir, 'other.json'), '{"files": {}}');
    expect(() => readRuns([join(dir, 'other.json')])).toThrow(/other\.json is not the JSON of npm run journeys/);
  });
});
