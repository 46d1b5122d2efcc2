// Redocly CLI's `diff` over the same before/after pairs as the gate's rules (the cases beside each rule in
// src/client/usage/rules/), with Redocly's own recommended diff rules (`diff-recommended`: this repository's
// redocly.yaml, which extends only the lint rules, turns every diff rule off and rates every change `patch`). Where
// the two disagree, and why, is the table below; the compatibility guide prints it, and
// redocly-diff.command.test.ts holds it to what Redocly says.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { findRedocly } from '../../src/sandbox/journeys/redocly.js';
import { repoRoot } from '../openapi/apis.js';

/** The semver bump Redocly's diff rates a change with. */
type Bump = 'major' | 'minor' | 'patch';

interface RedoclyVerdict {
  bump: Bump;
  /** The ids of the Redocly diff rules that fired. */
  rules: string[];
}

/**
 * The gate's rules whose cases Redocly rates otherwise, by rule id: Redocly's bump and its rule, and why the gate
 * says otherwise. On every other case the two agree: breaking for the gate and `major` for Redocly, or neither.
 */
export const REDOCLY_DISAGREES: Record<string, { redocly: string; why: string }> = {
  'request-body-became-required': {
    redocly: '`minor` (a request body added)',
    why: 'Redocly rates a body that becomes required as `major` only when the operation had one; an operation that took no body and now requires one refuses every call made before just the same.',
  },
  'response-media-type-added': {
    redocly: '`minor` (a media type added)',
    why: 'A response that came in one media type may now come in another: a client that parses the one it knew fails on the other.',
  },
  'response-status-removed': {
    redocly: '`major` (`response-removed`)',
    why: "A status other than a success no longer documented: the service may still send it, and the clients treat it as they treat any error (openapi-fetch's `error` is not tied to a status), so no call breaks.",
  },
  'object-opened': {
    redocly: '`major` (`schema-constraint-changed`, for a response)',
    why: 'A response object no longer closed may carry fields it does not declare: readers of the declared fields read them as before, as with a new optional field.',
  },
};

const run = promisify(execFile);

/** Redocly's diff of two descriptions, with its recommended diff rules. */
export async function redoclyDiff(before: OpenApiDocument, after: OpenApiDocument): Promise<RedoclyVerdict> {
  const dir = mkdtempSync(join(tmpdir(), 'redocly-diff-'));
  try {
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - diff-recommended\n');
    writeFileSync(join(dir, 'base.json'), JSON.stringify(before));
    writeFileSync(join(dir, 'revision.json'), JSON.stringify(after));
    const cli = findRedocly(dir, join(repoRoot, 'package.json'));
    const args = [cli.script, 'diff', 'base.json', 'revision.json', '--config', 'redocly.yaml'];
    const { stdout } = await run(process.execPath, [...args, '--format', 'json', '--fail-on', 'none'], {
      cwd: dir,
      env: cli.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as { bump: Bump; changes: { verdicts: { ruleId: string }[] }[] };
    const rules = [...new Set(report.changes.flatMap((c) => c.verdicts.map((v) => v.ruleId)))].sort();
    return { bump: report.bump, rules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
