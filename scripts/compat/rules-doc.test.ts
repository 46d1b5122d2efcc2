// The compatibility guide's tables are the rules' own (`npm run compat:rules` writes them): every rule is in the
// table with its id and its file, and the guide as committed is current.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../src/client/usage/rules/index.js';
import { GUIDE, guidePath, guideWithTables, rulesTable } from './rules-doc.js';

describe("the compatibility guide's table of rules", () => {
  it('has a row per rule, naming its id and its file', () => {
    const table = rulesTable();
    for (const rule of ALL_RULES)
      expect(table).toMatch(new RegExp(`^\\| \`${rule.id}\` \\|.*\\| \`[a-z]+\\.ts\` \\|$`, 'm'));
    expect(new Set(ALL_RULES.map((r) => r.id)).size).toBe(ALL_RULES.length);
  });

  it('each id is kebab-case', () => {
    expect(ALL_RULES.map((r) => r.id).filter((id) => !/^[a-z]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
  });

  it(`is current in ${GUIDE} (npm run compat:rules)`, () => {
    const text = readFileSync(guidePath, 'utf8');
    expect(text, `${GUIDE} is stale: run \`npm run compat:rules\``).toBe(guideWithTables(text));
  });
});
