// `npm run compat -- --consumers DIR` as a process, as a CI job runs it: it reads the example consumers' usage files
// (contract-tests/consumers/, read here with the extractor as `npx ramp-api usage` reads them) and takes the policies
// `--fail-on consumers` and `--fail-on seen`; a usage file it cannot read ends it with one named line and status 2. What it does with the
// files is tested in process by consumers.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeUsage, type UsageFile } from '../../src/client/usage/format.js';
import { repoRoot } from '../../src/testing/repo.js';
import { exampleConsumerUsages } from '../../src/testing/usage-project.js';

const run = promisify(execFile);

let usages: UsageFile[];
beforeAll(async () => {
  usages = await exampleConsumerUsages();
}, 120_000);

/** `npm run compat -- --consumers DIR ...options`, DIR holding `files`: its exit status and output. */
async function compat(files: Record<string, string>, ...options: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'consumers-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    // The script as `npm run compat` runs it (tsx), without npx and tsx's own process in front of it.
    const script = ['--import', 'tsx', 'scripts/compat/compat.ts', '--consumers', dir, ...options];
    const { stdout } = await run(process.execPath, script, { cwd: repoRoot });
    return { code: 0, stderr: '', stdout };
  } catch (error) {
    const { code, stderr, stdout } = error as { code: number; stderr: string; stdout: string };
    return { code, stderr: stderr.trim(), stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('npm run compat -- --consumers DIR', () => {
  it('reads the usage files and takes the policy --fail-on consumers', async () => {
    const files = Object.fromEntries(usages.map((u) => [`${u.consumer}.json`, serializeUsage(u)]));
    const { stdout } = await compat(files, '--fail-on', 'consumers');
    expect(stdout).toContain(
      'Known consumers: kyc-onboarding, payout-service, webhook-listener. Policy: --fail-on consumers.',
    );
    expect(stdout).toContain('Not used by any known consumer (candidates for deprecation):');
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
      /^UsageFormatError: .*a\.json is a usage file of format version 1; this ramp-api reads version 2\.$/,
    );
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
