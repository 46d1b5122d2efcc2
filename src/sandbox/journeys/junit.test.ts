// A run with one journey broken on purpose (a copy of first-call.arazzo.yaml whose `banks` step expects what the
// sandbox never answers), written as `npm run journeys -- --junit --json` writes it: a JUnit reader (junit2json)
// finds the workflow and the step that failed, with the criterion; the JSON says the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type TestSuite, type TestSuites } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { shippedWorkflowsDir } from './command.js';
import { checkWorkflows, journeyResults, summaryLines, UsageError, writeResults } from './command-output.js';
import { junitXml } from './junit.js';
import { findRedocly } from './redocly.js';
import { runRespect, sandboxTenant } from './respect.js';
import type { JourneyResults, WorkflowResult } from './results.js';

const dir = mkdtempSync(join(tmpdir(), 'journeys-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRONG = "$response.body#/0/status == 'no such status'";

/** The shipped first-call.arazzo.yaml in `dir`, its descriptions named by absolute path, its `banks` step's criterion wrong. */
function brokenCopy(): string {
  const shipped = shippedWorkflowsDir();
  const text = readFileSync(join(shipped, 'first-call.arazzo.yaml'), 'utf8')
    .replace(/url: \.\.\//g, `url: ${join(shipped, '..')}/`)
    .replace("$response.body#/0/status == 'true'", WRONG);
  expect(text).toContain(WRONG);
  const file = join(dir, 'first-call.arazzo.yaml');
  writeFileSync(file, text);
  return file;
}

describe('the results of a run with a broken journey', () => {
  const sandbox = useSandbox();

  it('as JUnit XML, name the workflow and the step that failed, and the criterion', async () => {
    const file = brokenCopy();
    const tenant = await sandboxTenant(sandbox.url, 'Broken on purpose');
    const servers = { business: sandbox.url, v1: sandbox.url, sandbox: sandbox.url };
    const how = { cli: findRedocly(dir) };
    const runs = await runRespect([{ file, workflows: ['firstCall'], movesTheClock: false }], servers, tenant, how);
    expect(runs.map((r) => r.ok)).toEqual([false]);
    const results = journeyResults(runs, 'sandbox', new Date(), 1234);
    const paths = { junit: join(dir, 'out', 'journeys.xml'), json: join(dir, 'out', 'journeys.json') };
    writeResults(results, paths);

    const report = (await parse(readFileSync(paths.junit, 'utf8'))) as TestSuites;
    const suites = report.testsuite as TestSuite[];
    expect(report).toMatchObject({ name: 'journeys (sandbox)', tests: 2, failures: 1 });
    expect(suites.map((s) => s.name)).toEqual(['first-call.arazzo.yaml / firstCall']);
    const failed = suites[0]!.testcase!.filter((c) => c.failure);
    expect(failed.map((c) => [c.classname, c.name])).toEqual([['firstCall', 'banks']]);
    expect(failed[0]!.failure![0]!.message).toBe(`${WRONG} does not hold`);
    // The steps before it passed; respect stops the workflow at the failed step.
    expect(suites[0]!.testcase!.map((c) => c.name)).toEqual(['businessToken', 'banks']);

    const json = JSON.parse(readFileSync(paths.json, 'utf8')) as JourneyResults;
    expect(json).toMatchObject({ target: 'sandbox', ok: false, ms: 1234 });
    expect(json.workflows[0]!.steps[1]).toMatchObject({
      step: 'banks',
      status: 'failed',
      httpStatus: 200,
      failed: [{ check: 'success criteria check', condition: WRONG }],
    });
    // Never a request: no credential of the tenant is in the files.
    const written = readFileSync(paths.json, 'utf8') + readFileSync(paths.junit, 'utf8');
    const credentials = { ...(tenant.v1Credentials as object), ...(tenant.businessCredentials as object) };
    for (const secret of Object.values(credentials)) expect(written).not.toContain(String(secret));
  }, 120_000);
});

describe('the command around the runs', () => {
  const result = (workflowId: string, status: 'passed' | 'failed', ms: number) => ({
    file: 'a.arazzo.yaml',
    workflowId,
    status,
    ms,
    steps: [],
  });

  it('names the known journeys for an unknown --workflow', () => {
    expect(() => checkWorkflows(['nope', 'one'], ['two', 'one'])).toThrow(UsageError);
    expect(() => checkWorkflows(['nope'], ['two', 'one'])).toThrow(
      'Unknown --workflow nope. The journeys this target runs: one, two.',
    );
    expect(() => checkWorkflows(undefined, ['one'])).not.toThrow();
  });

  it('prints each workflow with its own time and the run with one total time', () => {
    const runs = [{ results: [result('one', 'passed', 1200), result('two', 'failed', 300)] }];
    const results = journeyResults(runs, 'deployment', new Date(0), 45_678);
    expect(results.ok).toBe(false);
    expect(summaryLines(results)).toEqual([
      'FAILED  a.arazzo.yaml (one 1.2 s, two FAILED 0.3 s)',
      '2 journeys in 1 files: 1 passed, 1 failed; 45.7 s in all',
    ]);
  });
});

describe('the JUnit XML of a run', () => {
  const workflow = (workflowId: string, startedAt: string, message: string): WorkflowResult => ({
    file: 'a.arazzo.yaml',
    workflowId,
    startedAt,
    status: 'failed',
    ms: 500,
    steps: [
      {
        step: 'pay',
        workflowId,
        status: 'failed',
        ms: 500,
        attempts: 1,
        failed: [{ check: 'schema check', message }],
      },
    ],
  });

  it('gives each suite its own start time', async () => {
    const results: JourneyResults = {
      target: 'sandbox',
      startedAt: '2026-11-28T10:00:00.000Z',
      ms: 1000,
      ok: false,
      workflows: [workflow('one', '2026-11-28T10:00:00.000Z', 'x'), workflow('two', '2026-11-28T10:00:00.500Z', 'y')],
    };
    const suites = ((await parse(junitXml(results))) as TestSuites).testsuite as TestSuite[];
    expect(suites.map((s) => s.timestamp)).toEqual(['2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.500Z']);
  });
});
