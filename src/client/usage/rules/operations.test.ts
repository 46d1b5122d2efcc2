// Each rule of operations.ts fires on its cases (operations.cases.ts) with its line, and breaks nothing the other way where the
// change has a reverse.
import { describe, expect, it } from 'vitest';
import { casePair, testRuleCases } from '../../../testing/compat-cases.js';
import { compareDocuments } from '../compare.js';
import { CASES } from './operations.cases.js';
import { RULES } from './operations.js';

describe('the rules of operations.ts', () => {
  testRuleCases(RULES, CASES);

  it('a renamed path parameter is not also reported as a removed operation and a new one', () => {
    const { before, after } = casePair(CASES.find((c) => c.rule === 'path-parameter-renamed')!);
    const rules = compareDocuments(before, after).map((c) => c.rule);
    expect(rules.filter((id) => id === 'operation-removed' || id === 'operation-added')).toEqual([]);
  });
});
