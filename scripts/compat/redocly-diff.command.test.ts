// Redocly CLI's `diff` run as a process over every case of the gate's rules (src/client/usage/rules/*.cases.ts):
// where its verdict and the gate's differ is exactly the table REDOCLY_DISAGREES (redocly-diff.ts), which the
// compatibility guide prints, and Redocly's bump on those cases is the one the table names. A run of Redocly
// loads the whole CLI, so this lives with the commands (`npm run test:commands`), not in `npm test`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleById } from '../../src/client/usage/rules/index.js';
import { casePair, type RuleCase } from '../../src/testing/compat-cases.js';
import { repoRoot } from '../openapi/apis.js';
import { REDOCLY_DISAGREES, redoclyDiff } from './redocly-diff.js';

const rulesDir = join(repoRoot, 'src', 'client', 'usage', 'rules');

async function allCases(): Promise<RuleCase[]> {
  const files = readdirSync(rulesDir).filter((f) => f.endsWith('.cases.ts'));
  const modules = await Promise.all(files.map((f) => import(join(rulesDir, f)) as Promise<{ CASES: RuleCase[] }>));
  return modules.flatMap((m) => m.CASES);
}

/** Runs `task` over `items`, two at a time (each run is a Node process of its own). */
async function twoAtATime<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

describe("Redocly's diff over the gate's cases", () => {
  it('disagrees with the gate on the rules of REDOCLY_DISAGREES alone, rating them as the table says', async () => {
    const cases = await allCases();
    const verdicts = await twoAtATime(cases, async (c) => {
      const { before, after } = casePair(c);
      return { c, redocly: await redoclyDiff(before, after) };
    });
    const disagreeing = verdicts.filter(
      ({ c, redocly }) => (ruleById(c.rule)!.verdict === 'breaking') !== (redocly.bump === 'major'),
    );
    expect([...new Set(disagreeing.map(({ c }) => c.rule))].sort()).toEqual(Object.keys(REDOCLY_DISAGREES).sort());
    for (const { c, redocly } of disagreeing)
      expect(REDOCLY_DISAGREES[c.rule]!.redocly, c.name).toContain(`\`${redocly.bump}\``);
    for (const { c, redocly } of disagreeing.filter(({ redocly }) => redocly.rules.length))
      expect(REDOCLY_DISAGREES[c.rule]!.redocly, c.name).toContain(`\`${redocly.rules[0]}\``);
  }, 900_000);
});
