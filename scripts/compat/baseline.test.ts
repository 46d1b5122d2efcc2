// The baselines of `npm run compat`, in process: every family the descriptions bundle has one (the sandbox's control
// API included), and the descriptions break nothing of it; a family without one fails the gate with a line naming
// the file and how to make it; and `--accept --family NAME` makes that one alone, a byte copy of the bundle, whose
// digest is a usage file's. Each rule of the gate is tested beside it, in src/client/usage/rules/.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { bundleDigest } from '../../src/client/usage/bundles.js';
import { compareDocuments } from '../../src/client/usage/compare.js';
import { serializeUsage, USAGE_FORMAT_VERSION } from '../../src/client/usage/usage-file.js';
import { allApiFamilies, clientBundleDir, readBundle } from '../openapi/apis.js';
import { BASELINE_DIR } from './baseline.js';
import { runCompat } from './command.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A baseline folder holding copies of the repository's baselines of `families`. */
function baselineFolder(families: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
  folders.push(dir);
  for (const family of families) copyFileSync(join(BASELINE_DIR, `${family}.json`), join(dir, `${family}.json`));
  return dir;
}

/** `npm run compat -- ...args` in process, against the baselines in `baselineDir`: its status and lines. */
async function compat(args: string[], baselineDir?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCompat(args, {
    bundle: allApiFamilies,
    ...(baselineDir ? { baselineDir } : {}),
    log: (text) => out.push(text),
    error: (text) => err.push(text),
  });
  return { code, out: out.join('\n'), err };
}

describe('the baselines', () => {
  it('every family the descriptions bundle has one, the sandbox control API included', () => {
    const files = readdirSync(BASELINE_DIR);
    for (const api of allApiFamilies())
      expect(files, `openapi/baseline/${api.name}.json`).toContain(`${api.name}.json`);
  });

  it.each(allApiFamilies().map((a) => [a.name, a] as const))(
    'the descriptions of %s break nothing of its baseline',
    (name, api) => {
      const baseline = JSON.parse(readFileSync(join(BASELINE_DIR, `${name}.json`), 'utf8')) as OpenApiDocument;
      expect(
        compareDocuments(baseline, readBundle(api)).filter((c) => c.breaking),
        'run `npm run compat` for the report; `npm run compat:accept` only when releasing a new version',
      ).toEqual([]);
    },
  );

  it('the gate passes with every baseline present and compares the sandbox family', async () => {
    const { code, out, err } = await compat([]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out).toMatch(/^sandbox: 0 breaking/m);
  });

  it('a family without a baseline fails the gate, with one line naming the file and how to make it', async () => {
    const dir = baselineFolder(['business', 'v1']);
    const { code, err } = await compat([], dir);
    expect(code).toBe(1);
    expect(err).toEqual([
      `No baseline for the sandbox descriptions: ${join(dir, 'sandbox.json')} is missing. Make it from the current descriptions with \`npm run compat:accept -- --family sandbox\` and commit it.`,
    ]);
  });

  it('fails the same way with usage files and the policy --fail-on consumers', async () => {
    const dir = baselineFolder(['business', 'v1']);
    const consumers = mkdtempSync(join(tmpdir(), 'consumers-'));
    folders.push(consumers);
    const usage = { formatVersion: USAGE_FORMAT_VERSION, consumer: 'quiet', descriptions: {} };
    writeFileSync(
      join(consumers, 'quiet.json'),
      serializeUsage({ ...usage, operations: [], events: [], otherFields: [] }),
    );
    const { code, out, err } = await compat(['--consumers', consumers, '--fail-on', 'consumers'], dir);
    expect(out).toContain('Known consumers: quiet. Policy: --fail-on consumers.');
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^No baseline for the sandbox descriptions: /)]);
  });

  it('--accept --family NAME makes that baseline alone, a byte copy of the bundle the package ships', async () => {
    const dir = baselineFolder(['business']);
    const before = readFileSync(join(dir, 'business.json'));
    const { code, out } = await compat(['--accept', '--family', 'sandbox'], dir);
    expect(code).toBe(0);
    expect(out).toBe(`Baseline updated: ${join(dir, 'sandbox.json')}. Commit it with the release.`);
    expect(readdirSync(dir).sort()).toEqual(['business.json', 'sandbox.json']);
    expect(readFileSync(join(dir, 'business.json'))).toEqual(before);
    const shipped = readFileSync(join(clientBundleDir, 'sandbox.json'));
    expect(bundleDigest(readFileSync(join(dir, 'sandbox.json')))).toBe(bundleDigest(shipped));
  });

  it('--family without --accept, or naming no family: one line, status 2', async () => {
    expect(await compat(['--family', 'sandbox'])).toMatchObject({
      code: 2,
      err: ['UsageError: --family NAME goes with --accept.'],
    });
    const unknown = await compat(['--accept', '--family', 'nope'], baselineFolder([]));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toEqual(['UsageError: --family takes business, v1, sandbox, not nope.']);
  });
});
