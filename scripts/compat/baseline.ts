// The released baselines, openapi/baseline/<family>.json: each a byte copy of the family's bundle
// (dist/openapi/<family>.json) as it was released, so that its digest compares with a usage file's. Every family
// the descriptions bundle has one; a family without one is named, never passed over.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { bundleDigest } from '../../src/client/usage/bundles.js';
import { compareDocuments } from '../../src/client/usage/compare.js';
import { UsageError } from '../../src/client/usage/errors.js';
import { parseJson } from '../../src/client/usage/json-text.js';
import { type ApiFamily, repoRoot } from '../openapi/apis.js';
import type { FamilyResult } from './consumers.js';

export const BASELINE_DIR = join(repoRoot, 'openapi', 'baseline');

const baselineFile = (dir: string, family: string) => join(dir, `${family}.json`);

/** A path as a reader of the report finds it: relative to the repository when inside it. */
const shown = (file: string) => (file.startsWith(`${repoRoot}/`) ? relative(repoRoot, file) : file);

export interface BaselineResult extends FamilyResult {
  /** The digest of the baseline file's bytes (bundleDigest). */
  baselineDigest: string;
}

export interface BaselineComparison {
  results: BaselineResult[];
  /** The families that have no baseline file. */
  missing: string[];
}

/** Each family's changes since its baseline in `dir`; the families without one are listed apart. */
export function compareWithBaselines(
  current: Map<string, OpenApiDocument>,
  dir: string = BASELINE_DIR,
): BaselineComparison {
  const comparison: BaselineComparison = { results: [], missing: [] };
  for (const [api, doc] of current) {
    const file = baselineFile(dir, api);
    if (!existsSync(file)) {
      comparison.missing.push(api);
      continue;
    }
    const bytes = readFileSync(file);
    const refuse = (problem: string) =>
      new UsageError(`${file} is ${problem}: make it again with npm run compat:accept.`);
    const baseline = parseJson(bytes.toString('utf8'), refuse) as OpenApiDocument;
    comparison.results.push({
      api,
      changes: compareDocuments(baseline, doc),
      current: doc,
      baselineDigest: bundleDigest(bytes),
    });
  }
  return comparison;
}

/** The line that names a missing baseline and how to make it. */
export const missingBaseline = (family: string, dir: string = BASELINE_DIR) =>
  `No baseline for the ${family} descriptions: ${shown(baselineFile(dir, family))} is missing. Make it from the current descriptions with \`npm run compat:accept -- --family ${family}\` and commit it.`;

/** Copies the bundles of `apis` into `dir` as their baselines, byte for byte; returns the files written. */
export function acceptBaselines(apis: ApiFamily[], dir: string = BASELINE_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  return apis.map((api) => {
    const file = baselineFile(dir, api.name);
    copyFileSync(api.bundleJson, file);
    return shown(file);
  });
}
