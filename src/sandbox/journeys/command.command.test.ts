// `npx ramp-api-sandbox journeys` as a process, from the built package: the journeys ramp-api ships run against a
// sandbox (--sandbox) and, the service-only ones, against a deployment (--base-url, credentials from the
// environment; the sandbox stands in for it), writing their JSON and JUnit results; a wrong use is one line and
// exit status 2.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killTree } from '../../testing/process-tree.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { sandboxTenant } from './respect.js';
import type { JourneyResults } from './results.js';

const bin = join(import.meta.dirname, '..', 'dist', 'bin.js');
const dir = mkdtempSync(join(tmpdir(), 'journeys-command-'));
/** The runs not yet ended: a test that fails or times out leaves none of them (nor their respect) running. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.pid && child.exitCode === null) killTree(child.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The command's run: its exit status and what it printed. Asynchronous, as the sandbox answers in this process. */
function journeys(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number; out: string; err: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(SANDBOX_URL|CONTRACT_|.*_API_)/.test(k)),
  );
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, 'journeys', ...args],
      { env: { ...clean, NO_COLOR: '1', ...env } },
      (error, out, err) => {
        running.delete(child);
        resolve({ status: error ? Number(error.code) : 0, out, err });
      },
    );
    running.add(child);
  });
}

const results = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JourneyResults;

describe('npx ramp-api-sandbox journeys', () => {
  const sandbox = useSandbox();

  it('runs a shipped journey against --sandbox URL and writes its results', async () => {
    const paths = { json: join(dir, 'sandbox.json'), junit: join(dir, 'sandbox.xml') };
    const run = await journeys([
      '--sandbox',
      sandbox.url,
      '--workflow',
      'payoutCompleted',
      '--json',
      paths.json,
      '--junit',
      paths.junit,
    ]);
    expect(run, run.out + run.err).toMatchObject({ status: 0 });
    expect(run.out).toContain('1 journeys in 1 files: 1 passed, 0 failed');
    expect(results(paths.json)).toMatchObject({
      target: 'sandbox',
      ok: true,
      workflows: [{ file: 'payout.arazzo.yaml', workflowId: 'payoutCompleted', status: 'passed' }],
    });
    expect(readFileSync(paths.junit, 'utf8')).toContain('name="payout.arazzo.yaml / payoutCompleted"');
  }, 60_000);

  it("runs the service-only journeys against --base-url with the deployment's settings from the environment", async () => {
    const tenant = await sandboxTenant(sandbox.url, 'As a deployment');
    const env = {
      BUSINESS_API_CREDENTIALS: JSON.stringify(tenant.businessCredentials),
      V1_API_CREDENTIALS: JSON.stringify(tenant.v1Credentials),
      CONTRACT_PARAMS: JSON.stringify({
        clientId: tenant.clientId,
        'x-integration-register': tenant.integrationRegister,
      }),
      CONTRACT_ALLOW_WRITES: '1',
      JOURNEYS_RECEIVER_URL: tenant.receiverUrl!,
    };
    const json = join(dir, 'deployment.json');
    const run = await journeys(['--base-url', sandbox.url, '--workflow', 'firstCall', '--json', json], env);
    expect(run, run.out + run.err).toMatchObject({ status: 0 });
    expect(results(json)).toMatchObject({ target: 'deployment', ok: true, workflows: [{ workflowId: 'firstCall' }] });
    // A journey that needs the control API is not one a deployment runs.
    const sandboxOnly = await journeys(['--base-url', sandbox.url, '--workflow', 'payoutCompleted'], env);
    expect(sandboxOnly.status).toBe(2);
    expect(sandboxOnly.err).toMatch(/^Unknown --workflow payoutCompleted\. The journeys this target runs: .*firstCall/);
    // Without the consent to create records, nothing is sent.
    const refused = await journeys(['--base-url', sandbox.url], { ...env, CONTRACT_ALLOW_WRITES: '' });
    expect(refused).toMatchObject({ status: 2, out: '' });
    expect(refused.err).toContain('set CONTRACT_ALLOW_WRITES=1');
    // A secret is never repeated, even in a refusal of a malformed value.
    const malformed = await journeys(['--base-url', sandbox.url], { ...env, V1_API_CREDENTIALS: '{secret-value' });
    expect(malformed.status).toBe(2);
    expect(malformed.err).toContain('V1_API_CREDENTIALS must be the JSON body of the token call');
    expect(malformed.err).not.toContain('secret-value');
  }, 60_000);

  it.each([
    [['--target', 'staging'], '--target is sandbox or deployment, not staging.'],
    [
      ['--sandbox', 'http://127.0.0.1:1', '--base-url', 'http://127.0.0.1:2'],
      '--sandbox and --base-url contradict each other: give one.',
    ],
    [['--base-url', 'ftp://example.test'], '--base-url must be an http or https URL.'],
    [['--sandbox', 'localhost:4010'], '--sandbox must be an http or https URL.'],
    [['--nope'], "Unknown option '--nope'"],
  ])('refuses %j in one line, exit status 2', async (args, message) => {
    const run = await journeys(args);
    expect(run.status).toBe(2);
    expect(run.out).toBe('');
    expect(run.err.trimEnd().split('\n')).toHaveLength(1);
    expect(run.err).toContain(message);
  });

  it('prints its help', async () => {
    const run = await journeys(['--help']);
    expect(run).toMatchObject({ status: 0, err: '' });
    expect(run.out).toContain('--base-url URL');
    expect(run.out).toContain('npm i -D @redocly/cli@');
  });
});
