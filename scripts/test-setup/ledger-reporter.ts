// Vitest reporter that holds the ledger of the source document (src/sandbox/fidelity/ledger.ts) to the run: the
// run fails when a row names a test that does not exist, did not run or did not pass, or when a row has neither
// a test nor a reason. A run of some files only checks the rows of those files; a run filtered by test name
// (`-t`) checks nothing, as it skips tests on purpose. Writes the ledger with this run's outcome of each row to
// reports/ledger.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { type RanTest, renderLedger, rowOutcome, rowProblems, runProblems } from '../../src/sandbox/fidelity/check.js';
import { ledger } from '../../src/sandbox/fidelity/ledger.js';
import { SOURCE_PATH } from '../../src/sandbox/fidelity/page.js';

export default class LedgerReporter implements Reporter {
  private vitest: Vitest | undefined;
  /** Every file the configuration includes, read as the run starts: the end of the run then prints at once. */
  private all: string[] = [];

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunStart(): Promise<void> {
    const vitest = this.vitest;
    if (vitest) this.all = (await vitest.globTestSpecifications()).map((spec) => this.file(spec.moduleId));
  }

  private file(moduleId: string): string {
    return relative(this.vitest!.config.root, moduleId).split('\\').join('/');
  }

  // Synchronous, so that its lines come before those of the summary reporter, which vitest calls after it.
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const vitest = this.vitest;
    if (!vitest || vitest.config.testNamePattern) return;
    const root = vitest.config.root;
    const file = (moduleId: string) => this.file(moduleId);
    const ran: RanTest[] = modules.flatMap((module) =>
      [...module.children.allTests()].map((test) => ({
        file: file(module.moduleId),
        name: test.name,
        state: test.result().state,
      })),
    );
    // Complete: every file the configuration includes ran (so a row's file that did not run is not among them).
    const ranFiles = new Set(ran.map((t) => t.file));
    const complete = this.all.every((f) => ranFiles.has(f));
    const problems = [...rowProblems(ledger), ...runProblems(ledger, ran, complete)];
    const reports = join(root, 'reports');
    mkdirSync(reports, { recursive: true });
    writeFileSync(
      join(reports, 'ledger.md'),
      renderLedger(ledger, {
        source: SOURCE_PATH,
        title: `The ledger of the source document, as this run left it (${complete ? 'the whole suite' : 'some files'})`,
        outcome: (row) => rowOutcome(row, ran),
      }),
    );
    if (problems.length) {
      console.error(`\nThe ledger of the source document (src/sandbox/fidelity/ledger.ts) does not hold:`);
      for (const problem of problems) console.error(`  ${problem}`);
      process.exitCode = 1;
    } else if (complete) {
      const tested = ledger.filter((row) => row.test).length;
      console.log(
        `\nledger: ${ledger.length} statements, ${tested} proved by tests that passed in this run (reports/ledger.md)`,
      );
    }
  }
}
