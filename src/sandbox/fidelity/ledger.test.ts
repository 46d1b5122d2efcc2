// The ledger of the source document (./ledger.ts) is whole and true to its sources: every row has a test or a
// reason, each named test file is one npm test runs and holds a test of that title, each row's quote is on the
// line of the source document it names (where the document is at hand), and docs/ledger.md is current. That each
// named test ran and passed is checked on every run of the suite by scripts/test-setup/ledger-reporter.ts, with
// the functions tried here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.js';
import { type RanTest, rowOutcome, rowProblems, runProblems } from './check.js';
import { ledger, type Row } from './ledger.js';
import { LEDGER_PAGE, ledgerPage, ledgerPagePath, REPO_ROOT } from './page.js';

/** A glob of the vitest configuration as a regular expression (`**` any folders, `*` within one name). */
const globRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .split('**/')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
      .join('(?:.*/)?')}$`,
  );
const include = (config.test?.include ?? []).map(globRegExp);
const exclude = (config.test?.exclude ?? []).map(globRegExp);

/** The source document, beside the repository as the README says, or where RAMP_SOURCE_DOCUMENT points. */
const sourcePath =
  process.env.RAMP_SOURCE_DOCUMENT ?? join(REPO_ROOT, '..', 'shared', 'api-source', 'service-interface.md');
const source = existsSync(sourcePath) ? readFileSync(sourcePath, 'utf8').split('\n') : null;

describe('the ledger of the source document', () => {
  it('has rows, each with a test or a reason it cannot be tested, and not both', () => {
    expect(ledger.length).toBeGreaterThan(100);
    expect(rowProblems(ledger)).toEqual([]);
  });

  it('names test files that npm test runs, each holding a test of the title named', () => {
    const problems = ledger.flatMap((row) => {
      if (!row.test) return [];
      const { file, name } = row.test;
      const path = join(REPO_ROOT, file);
      if (!existsSync(path)) return [`${row.id}: no file ${file}`];
      if (!include.some((r) => r.test(file)) || exclude.some((r) => r.test(file)))
        return [`${row.id}: npm test does not run ${file}`];
      const text = readFileSync(path, 'utf8');
      return ["'", '"', '`'].some((q) => text.includes(`${q}${name}${q}`))
        ? []
        : [`${row.id}: no test "${name}" in ${file}`];
    });
    expect(problems).toEqual([]);
  });

  it.skipIf(!source)("quotes the source document's words on the line each row names", () => {
    const lines = source!;
    const off = ledger
      .filter((row) => !lines[row.line - 1]?.includes(row.quote))
      .map((row) => `${row.id}: line ${row.line} is "${lines[row.line - 1] ?? ''}"`);
    expect(off).toEqual([]);
    // The last line the ledger names is near the document's end: no section was left out at the end.
    expect(Math.max(...ledger.map((row) => row.line))).toBeGreaterThan(lines.length - 5);
  });

  it(`is rendered in ${LEDGER_PAGE} as it is now (run \`npm run ledger\` after changing it)`, () => {
    expect(readFileSync(ledgerPagePath(), 'utf8')).toBe(ledgerPage());
  });
});

describe('the checks that keep the ledger from rotting', () => {
  const row = (id: string, test?: Row['test'], untestable?: Row['untestable']): Row => ({
    id,
    section: 'Limits',
    line: 1,
    quote: 'a',
    statement: 'b',
    ...(test ? { test } : {}),
    ...(untestable ? { untestable } : {}),
  });
  const a = { file: 'a.test.ts', name: 'proves a' };

  it('refuse a row with neither a test nor a reason, one with both, and an id used twice', () => {
    const reason = { reason: 'not-shown' as const, why: 'not shown' };
    expect(rowProblems([row('x'), row('y', a, reason), row('z', a), row('z', a)])).toEqual([
      'ledger row x: has neither a test nor a reason it cannot be tested',
      'ledger row y: has both a test and a reason it cannot be tested',
      'ledger row z: its id is used twice',
    ]);
  });

  it('refuse a test that does not exist, did not run or failed, and a file the whole suite did not run', () => {
    const rows = [row('r', a)];
    const ran = (state: RanTest['state'], name = a.name): RanTest[] => [{ file: a.file, name, state }];
    expect(runProblems(rows, ran('passed'), true)).toEqual([]);
    expect(runProblems(rows, ran('passed', 'proves b'), true)).toEqual([
      'ledger row r: names a test that does not exist in a.test.ts: "proves a"',
    ]);
    expect(runProblems(rows, ran('skipped'), true)).toEqual([
      'ledger row r: its test did not run: a.test.ts "proves a"',
    ]);
    expect(runProblems(rows, ran('failed'), true)).toEqual(['ledger row r: its test failed: a.test.ts "proves a"']);
    expect(runProblems(rows, [], true)).toEqual([
      'ledger row r: its test file a.test.ts did not run (does it exist, and does npm test include it?)',
    ]);
    // A run of other files says nothing of this row.
    expect(runProblems(rows, [], false)).toEqual([]);
    expect(rowOutcome(rows[0]!, ran('skipped'))).toBe('did not run');
  });
});
