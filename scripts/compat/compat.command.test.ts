// `npm run compat -- --consumers DIR` as a process, as a CI job runs it: it reads the example consumers' usage files
// (contract-tests/consumers/, read here with the extractor as `npx ramp-api usage` reads them) and takes the policies
// `--fail-on consumers` and `--fail-on seen`, with `--consumers=DIR` as with `--consumers DIR`; a usage file it
// cannot read, a JSON file that is no usage file, and options it does not take end it with one named line and status
// 2; and `--explain ID`, which prints a rule of the gate or names the known ids. What it does with the files is
// tested in process by consumers.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeUsage, type UsageFile } from '../../src/client/usage/usage-file.js';
import { visibleText } from '../../src/client/usage/visible-text.js';
import { CONTROL_CHARACTER, TERMINAL_ATTACK } from '../../src/testing/hostile-text.js';
import { repoRoot } from '../../src/testing/repo.js';
import { exampleConsumerUsages } from '../../src/testing/usage-project.js';

const run = promisify(execFile);

let usages: UsageFile[];
beforeAll(async () => {
  usages = await exampleConsumerUsages();
}, 120_000);

/** `npm run compat -- ...args` as a process: its exit status and output. */
async function compatRun(args: string[]) {
  try {
    // The script as `npm run compat` runs it (tsx), without npx and tsx's own process in front of it.
    const script = ['--import', 'tsx', 'scripts/compat/compat.ts', ...args];
    const { stdout } = await run(process.execPath, script, { cwd: repoRoot });
    return { code: 0, stderr: '', stdout };
  } catch (error) {
    const { code, stderr, stdout } = error as { code: number; stderr: string; stdout: string };
    return { code, stderr: stderr.trim(), stdout };
  }
}

/** `npm run compat -- --consumers DIR ...options`, DIR holding `files`. */
async function compat(files: Record<string, string>, ...options: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'consumers-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    return await compatRun(['--consumers', dir, ...options]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The one line a refused command printed, and that it exited with status 2 having printed nothing else. */
function refused(result: { code: number; stderr: string; stdout: string }): string {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')).toHaveLength(1);
  return result.stderr;
}

describe('npm run compat -- --consumers DIR', () => {
  it('reads the usage files and takes the policy --fail-on consumers', async () => {
    const files = Object.fromEntries(usages.map((u) => [`${u.consumer}.json`, serializeUsage(u)]));
    const { stdout } = await compat(files, '--fail-on', 'consumers');
    expect(stdout).toContain(
      'Known consumers: kyc-onboarding, payout-service, treasury-service, webhook-listener. Policy: --fail-on consumers.',
    );
    expect(stdout).toContain('Not used by any known consumer (candidates for deprecation):');
  }, 60_000);

  it('--consumers=DIR is --consumers DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'consumers-'));
    writeFileSync(join(dir, 'a.json'), serializeUsage(usages[0]!));
    try {
      const { stdout } = await compatRun([`--consumers=${dir}`, '--fail-on=consumers']);
      expect(stdout).toContain(`Known consumers: ${usages[0]!.consumer}. Policy: --fail-on consumers.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes the policy --fail-on seen: a change that only may break a known consumer passes', async () => {
    const files = Object.fromEntries(usages.map((u) => [`${u.consumer}.json`, serializeUsage(u)]));
    const { stdout } = await compat(files, '--fail-on', 'seen');
    expect(stdout).toContain('Policy: --fail-on seen.');
  }, 60_000);

  it('refuses an unknown policy: one line naming the three, status 2', async () => {
    const { code, stderr } = await compat({ 'a.json': serializeUsage(usages[0]!) }, '--fail-on', 'some');
    expect(code).toBe(2);
    expect(stderr).toBe('UsageError: --fail-on takes any, consumers, seen, not some.');
  }, 60_000);

  it('refuses a usage file of another format version: one line, status 2', async () => {
    const other = { ...JSON.parse(serializeUsage(usages[0]!)), formatVersion: 1 };
    const { code, stderr } = await compat({ 'a.json': JSON.stringify(other) });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^UsageFormatError: .*a\.json is a usage file of format version 1; this ramp-api reads version 2: make it again with `npx ramp-api usage`\.$/,
    );
  }, 60_000);

  it('names a JSON file that is not a usage file (a package.json): one line, status 2', async () => {
    const line = refused(await compat({ 'a.json': serializeUsage(usages[0]!), 'package.json': '{"name": "x"}' }));
    expect(line).toMatch(/^UsageFormatError: .*package\.json is not a usage file \(no formatVersion/);
  }, 60_000);

  it('refuses a malformed file in the consumers folder: one line, status 2', async () => {
    const { code, stderr } = await compat({
      'good.json': serializeUsage(usages[0]!),
      'bad.json': '{"formatVersion": 2,',
    });
    expect(code).toBe(2);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^UsageFormatError: .*bad\.json is not a JSON usage file/);
  }, 60_000);
});

describe('npm run compat -- --consumers DIR with names that would forge its report', () => {
  it('prints them escaped: no control character, no line of their own, and names the same twice in one line', async () => {
    const consumer = `${usages[0]!.consumer}${TERMINAL_ATTACK}`;
    const forged = serializeUsage({ ...usages[0]!, consumer });
    const { stdout } = await compat({ 'a.json': forged });
    expect(stdout.replace(/\n/g, '')).not.toMatch(CONTROL_CHARACTER);
    expect(stdout.split('\n')[0]).toBe(`Known consumers: ${visibleText(consumer)}. Policy: --fail-on any.`);
    expect(stdout.split('\n').filter((line) => line.includes('No breaking change'))).toEqual([stdout.split('\n')[0]]);
    const twice = refused(await compat({ 'a.json': forged, 'b.json': forged }));
    expect(twice).not.toMatch(CONTROL_CHARACTER);
    expect(twice).toContain(`names the consumer ${visibleText(consumer).replace(/^(.*?)\\n/, '$1 ')} again`);
  }, 60_000);
});

describe('npm run compat reads its options strictly: bad ones get one line and status 2, never a plain run', () => {
  it('an unknown option', async () => {
    expect(refused(await compatRun(['--consumer', 'usage/']))).toMatch(/^UsageError: Unknown option '--consumer'/);
  }, 60_000);

  it('--fail-on without --consumers', async () => {
    expect(refused(await compatRun(['--fail-on', 'consumers']))).toMatch(
      /^UsageError: --fail-on goes with --consumers DIR/,
    );
  }, 60_000);

  it('--consumers without a folder', async () => {
    expect(refused(await compatRun(['--consumers']))).toMatch(
      /^UsageError: Option '--consumers <value>' argument missing/,
    );
  }, 60_000);

  it('a word that is no option', async () => {
    expect(refused(await compatRun(['usage/']))).toMatch(/^UsageError: Unexpected argument 'usage\/'/);
  }, 60_000);
});

describe('npm run compat -- --explain ID prints a rule of the gate', () => {
  it('a known id: the rule, its direction, verdict, whom it breaks and its file; status 0', async () => {
    const { code, stdout, stderr } = await compatRun(['--explain', 'response-enum-value-added']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.split('\n').slice(0, 1)).toEqual(['response-enum-value-added']);
    expect(stdout).toContain('  Direction: response\n  Verdict: breaking\n  Breaks: readers (');
    expect(stdout).toContain('  Rule and its cases: src/client/usage/rules/enums.ts');
  }, 60_000);

  it('an id that is no rule: one line naming the known ids, status 2', async () => {
    expect(refused(await compatRun(['--explain', 'enum-value-added']))).toMatch(
      /^UsageError: --explain takes a rule's id \(operation-removed, .*response-enum-value-added.*\), not enum-value-added\.$/,
    );
  }, 60_000);

  it('with another option: one line, status 2', async () => {
    expect(refused(await compatRun(['--explain', 'operation-removed', '--accept']))).toBe(
      'UsageError: --explain ID prints a rule and compares nothing: it takes no other option.',
    );
  }, 60_000);
});
