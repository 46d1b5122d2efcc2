// Test support for the compatibility rules (src/client/usage/rules/): a case is a change made to a copy of a released
// baseline (openapi/baseline/), the rule it must fire with the line it must print, and, where the change has a
// reverse that loosens what it tightened, the rule the reverse fires. Each file of rules keeps its cases beside it
// (`<family>.cases.ts`); its test runs them, and scripts/compat/redocly-diff.command.test.ts hands the same pairs
// to Redocly's diff.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '../client/lookup/index.js';
import { compareDocuments } from '../client/usage/compare.js';
import type { CompatRule } from '../client/usage/rules/rule.js';
import { repoRoot } from './repo.js';

type BaselineFamily = 'business' | 'v1';

export interface RuleCase {
  /** The id of the rule the change fires. */
  rule: string;
  /** What is changed, as the test names it. */
  name: string;
  family: BaselineFamily;
  /** A change made to the baseline before the case starts, for a case about something the baseline lacks. */
  before?: (doc: any) => void;
  change: (doc: any) => void;
  /** The line (`where: what`) the rule prints. */
  line: RegExp;
  /** The rule the reverse change fires; the reverse breaks nothing. */
  reverse?: string;
}

const baselines = new Map<BaselineFamily, OpenApiDocument>();

/** The released baseline of a family, parsed once; callers get a copy. */
function baseline(family: BaselineFamily): OpenApiDocument {
  if (!baselines.has(family)) {
    const file = join(repoRoot, 'openapi', 'baseline', `${family}.json`);
    baselines.set(family, JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
  }
  return structuredClone(baselines.get(family)!);
}

/** A copy of `doc` with `mutate` applied. */
function mutated(doc: OpenApiDocument, mutate: (doc: any) => void): OpenApiDocument {
  const changed = structuredClone(doc);
  mutate(changed);
  return changed;
}

/** The two descriptions of a case: before and after its change. */
export function casePair(c: RuleCase): { before: OpenApiDocument; after: OpenApiDocument } {
  const before = c.before ? mutated(baseline(c.family), c.before) : baseline(c.family);
  return { before, after: mutated(before, c.change) };
}

export const schemas = (doc: any) => doc.components.schemas as Record<string, any>;

/** Every rule of `rules` has a case; each case fires its rule with its line, and its reverse breaks nothing. */
export function testRuleCases(rules: CompatRule[], cases: RuleCase[]): void {
  it('every rule of the file has a case', () => {
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(rules.map((r) => r.id)));
  });
  it.each(cases.map((c) => [`${c.rule}: ${c.name}`, c] as const))('%s', (_name, c) => {
    const { before, after } = casePair(c);
    const fired = compareDocuments(before, after).filter((change) => change.rule === c.rule);
    expect(fired.map((change) => `${change.where}: ${change.what}`).join('\n')).toMatch(c.line);
    const rule = rules.find((r) => r.id === c.rule)!;
    for (const change of fired) {
      expect(change.breaking).toBe(rule.verdict === 'breaking');
      expect(Boolean(change.notice)).toBe(rule.verdict === 'notice');
    }
    if (!c.reverse) return;
    const reverse = compareDocuments(after, before);
    expect(
      reverse.filter((change) => change.breaking),
      'the reverse change breaks nothing',
    ).toEqual([]);
    expect(reverse.map((change) => change.rule)).toContain(c.reverse);
  });
}
