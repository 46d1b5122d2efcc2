// What keeps the ledger (./ledger.ts) from rotting, as plain functions: the rows' own shape (each has a test or a
// reason, never both, never neither), and a run's outcome for each row's test (it exists, it ran, it passed).
// Used by the ledger's test and by the reporter that checks every run of the whole suite
// (scripts/test-setup/ledger-reporter.ts); rendering the ledger as Markdown is here too, for `npm run ledger`.
import { REASONS, type Row } from './ledger.js';

/** What is wrong with the rows themselves, one line each; empty when nothing is. */
export function rowProblems(rows: readonly Row[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const at = `ledger row ${row.id || '(no id)'}`;
    if (!row.id) problems.push(`${at}: has no id`);
    else if (seen.has(row.id)) problems.push(`${at}: its id is used twice`);
    seen.add(row.id);
    if (!row.statement.trim()) problems.push(`${at}: states nothing`);
    if (!row.section.trim() || !Number.isInteger(row.line) || row.line < 1 || !row.quote.trim())
      problems.push(`${at}: does not say where the source says it (section, line and quote)`);
    if (row.test && row.untestable) problems.push(`${at}: has both a test and a reason it cannot be tested`);
    if (!row.test && !row.untestable) problems.push(`${at}: has neither a test nor a reason it cannot be tested`);
    if (row.test && (!row.test.file.trim() || !row.test.name.trim()))
      problems.push(`${at}: names a test without its file or its title`);
    if (row.untestable && (!(row.untestable.reason in REASONS) || !row.untestable.why.trim()))
      problems.push(`${at}: gives no reason it cannot be tested`);
  }
  return problems;
}

/** One test as a run saw it: its file (from the repository root), its own title and its outcome. */
export interface RanTest {
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
}

/**
 * What is wrong with a run for the ledger: each row whose test does not exist, did not run or did not pass.
 * `complete` says the run covered every test file; a run of some files only (`vitest run <files>`) says nothing
 * of the rows whose file it left out.
 */
export function runProblems(rows: readonly Row[], ran: readonly RanTest[], complete: boolean): string[] {
  const files = new Set(ran.map((t) => t.file));
  const problems: string[] = [];
  for (const row of rows) {
    if (!row.test) continue;
    const { file, name } = row.test;
    const at = `ledger row ${row.id}`;
    if (!files.has(file)) {
      if (complete)
        problems.push(`${at}: its test file ${file} did not run (does it exist, and does npm test include it?)`);
      continue;
    }
    const runs = ran.filter((t) => t.file === file && t.name === name);
    if (!runs.length) problems.push(`${at}: names a test that does not exist in ${file}: "${name}"`);
    for (const t of runs)
      if (t.state !== 'passed')
        problems.push(`${at}: its test ${t.state === 'failed' ? 'failed' : 'did not run'}: ${file} "${name}"`);
  }
  return problems;
}

/** The outcome of each row's test in a run, for the report: `passed`, `failed`, `did not run` or `not in this run`. */
export function rowOutcome(row: Row, ran: readonly RanTest[]): string {
  if (!row.test) return 'untestable';
  const { file, name } = row.test;
  if (!ran.some((t) => t.file === file)) return 'not in this run';
  const runs = ran.filter((t) => t.file === file && t.name === name);
  if (!runs.length) return 'no such test';
  if (runs.some((t) => t.state === 'failed')) return 'failed';
  return runs.every((t) => t.state === 'passed') ? 'passed' : 'did not run';
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The ledger as a Markdown page: figures, the reasons grouped, then one table row per statement. */
export function renderLedger(
  rows: readonly Row[],
  options: { source: string; outcome?: (row: Row) => string; title?: string },
): string {
  const tested = rows.filter((r) => r.test);
  const untestable = rows.filter((r) => r.untestable);
  const byReason = Object.entries(REASONS).map(
    ([reason, meaning]) =>
      `- ${untestable.filter((r) => r.untestable!.reason === reason).length} \`${reason}\`: ${meaning}`,
  );
  const settled = rows
    .filter((r) => r.settled)
    .map((r) => `- \`${r.id}\` (line ${r.line}): ${r.statement} ${r.settled}`);
  const outcome = options.outcome;
  const header = outcome
    ? ['| # | Source | Statement | Proved by | This run |', '| --- | --- | --- | --- | --- |']
    : ['| # | Source | Statement | Proved by, or why not |', '| --- | --- | --- | --- |'];
  const lines = rows.map((r, i) => {
    const where = `${cell(r.section)}, line ${r.line}: “${cell(r.quote)}”`;
    const proof = r.test
      ? `\`${r.test.file}\`: “${cell(r.test.name)}”`
      : `untestable (\`${r.untestable!.reason}\`): ${cell(r.untestable!.why)}`;
    const columns = [String(i + 1), where, cell(r.statement), proof, ...(outcome ? [outcome(r)] : [])];
    return `| ${columns.join(' | ')} |`;
  });
  return [
    `# ${options.title ?? 'The ledger of the source document'}`,
    '',
    `Every statement the source document (${options.source}) makes about behaviour the sandbox`,
    'can show, with the test that proves it against a running sandbox or why it cannot be shown locally.',
    'Generated from `src/sandbox/fidelity/ledger.ts` by `npm run ledger`. `npm test` fails when this page is',
    'stale, when a row has neither a test nor a reason, and when a row names a test that does not exist, did not',
    'run or did not pass.',
    '',
    `${rows.length} statements: ${tested.length} tested, ${untestable.length} untestable.`,
    '',
    ...byReason,
    '',
    ...(settled.length
      ? ['Where the sandbox disagreed with the source, and how it was settled:', '', ...settled, '']
      : []),
    ...header,
    ...lines,
    '',
  ].join('\n');
}
