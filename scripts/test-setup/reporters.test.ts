// The end of `npm test`'s output, as its reporters write it: each skipped test named with its reason, and the
// count line CI reads the very last line, after the ledger's. The reporters are run as vitest runs them: each
// hook of every reporter of vitest.config.ts called at once, in the configuration's order, and awaited together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { ledger } from '../../src/sandbox/fidelity/ledger.js';
import config from '../../vitest.config.js';

interface FakeTest {
  file: string;
  name: string;
  fullName: string;
  state: 'passed' | 'failed' | 'skipped';
  note?: string;
}

/** An error outside any test, as vitest reports it: of a file (it did not load, its own hook failed) or a suite. */
interface FakeError {
  file: string;
  suite?: string;
  message: string;
}

/** Test modules as vitest hands them to a reporter, holding `tests` and the errors outside them. */
function modulesOf(root: string, tests: FakeTest[], errors: FakeError[]): TestModule[] {
  const files = [...new Set([...tests, ...errors].map((t) => t.file))];
  const errorsOf = (file: string, suite?: string) =>
    errors.filter((e) => e.file === file && e.suite === suite).map(({ message }) => ({ message }));
  return files.map(
    (file) =>
      ({
        moduleId: join(root, file),
        errors: () => errorsOf(file),
        children: {
          *allTests() {
            for (const t of tests.filter((test) => test.file === file))
              yield { name: t.name, fullName: t.fullName, result: () => ({ state: t.state, note: t.note }) };
          },
          *allSuites() {
            for (const suite of new Set(errors.flatMap((e) => (e.file === file && e.suite ? [e.suite] : []))))
              yield { fullName: suite, errors: () => errorsOf(file, suite) };
          },
        },
      }) as unknown as TestModule,
  );
}

/** Every line the reporters printed, in order, for a run of `tests` (every file of the run among them). */
async function runReporters(tests: FakeTest[], errors: FakeError[] = [], unhandled: string[] = []): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'reporters-'));
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void printed.push(...args.join(' ').split('\n'));
  vi.spyOn(console, 'log').mockImplementation(keep);
  vi.spyOn(console, 'error').mockImplementation(keep);
  const exitCode = process.exitCode;
  try {
    const files = [...new Set(tests.map((t) => t.file))];
    const vitest = {
      config: { root, testNamePattern: undefined },
      globTestSpecifications: async () => files.map((file) => ({ moduleId: join(root, file) })),
    } as unknown as Vitest;
    const paths = ((config.test?.reporters ?? []) as string[]).filter((r) => r.startsWith('./'));
    const reporters: Reporter[] = await Promise.all(
      paths.map(async (path) => new (await import(resolve(import.meta.dirname, '../..', path))).default()),
    );
    const report = (hook: keyof Reporter, ...args: unknown[]) =>
      Promise.all(reporters.map((r) => (r[hook] as ((...a: unknown[]) => unknown) | undefined)?.call(r, ...args)));
    await report('onInit', vitest);
    await report('onTestRunStart', []);
    const failed = errors.length + unhandled.length > 0;
    const unhandledErrors = unhandled.map((message) => ({ message }));
    await report('onTestRunEnd', modulesOf(root, tests, errors), unhandledErrors, failed ? 'failed' : 'passed');
  } finally {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  }
  return printed.filter((line) => line.trim() !== '');
}

/** A passing test for each row of the ledger that names one, so the ledger holds and prints its line. */
const ledgerTests: FakeTest[] = ledger.flatMap((row) =>
  row.test ? [{ file: row.test.file, name: row.test.name, fullName: row.test.name, state: 'passed' as const }] : [],
);

afterEach(() => vi.restoreAllMocks());

describe("npm test's last lines", () => {
  it('name each skipped test, with its file and its reason, and end with the count line, after the ledger', async () => {
    const printed = await runReporters([
      ...ledgerTests,
      {
        file: 'contract-tests/contract.test.ts',
        name: '422: unreachable in the sandbox: no body breaks it',
        fullName: 'createPayout > 422: unreachable in the sandbox: no body breaks it',
        state: 'skipped',
      },
      {
        file: 'src/sandbox/store/server.postgres.test.ts',
        name: 'serves on PostgreSQL',
        fullName: 'the sandbox on PostgreSQL > serves on PostgreSQL',
        state: 'skipped',
        note: 'no PostgreSQL server on this machine',
      },
    ]);
    expect(printed.at(-1)).toBe(`${ledgerTests.length} passed, 0 failed, 2 skipped`);
    expect(printed.some((line) => line.startsWith('ledger: '))).toBe(true);
    expect(printed).toContain(
      '  contract-tests/contract.test.ts > createPayout > 422: unreachable in the sandbox: no body breaks it',
    );
    expect(printed).toContain(
      '  src/sandbox/store/server.postgres.test.ts > the sandbox on PostgreSQL > serves on PostgreSQL: no PostgreSQL server on this machine',
    );
  });

  it('count an error outside the tests as a failure, and name where it was', async () => {
    // A file that did not load has no test; one whose afterAll failed has only passed tests.
    const printed = await runReporters(
      ledgerTests,
      [
        { file: 'src/sandbox/http/broken.test.ts', message: 'SyntaxError: Unexpected token\n    at line 3' },
        { file: 'src/sandbox/core/clock.test.ts', suite: 'the clock', message: 'Error: afterAll failed' },
      ],
      ['Error: a timer fired after its test'],
    );
    expect(printed.at(-1)).toBe(`${ledgerTests.length} passed, 3 failed, 0 skipped`);
    expect(printed).toContain('  src/sandbox/http/broken.test.ts: SyntaxError: Unexpected token');
    expect(printed).toContain('  src/sandbox/core/clock.test.ts > the clock: Error: afterAll failed');
    expect(printed).toContain('  (no test): Error: a timer fired after its test');
  });

  it("show an error's message as text: a control character in it is escaped, not sent to the terminal", async () => {
    // A message may quote what a test read (a file, an answer): here a screen clear and a carriage return.
    const printed = await runReporters(ledgerTests, [], ['Error: read \u001b[2J\rdone']);
    expect(printed).toContain('  (no test): Error: read \\u001b[2J\\rdone');
    expect(printed.join('\n')).not.toContain('\u001b');
  });
});
