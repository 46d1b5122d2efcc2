// Vitest reporter that ends the run with each skipped test (its file, its name and the reason it gives), each error
// outside a test (a file that did not load, a hook that failed, an error no test caught), the wall time, and as the
// very last line `N passed, N failed, N skipped`, the line CI reads, where each error outside a test counts as one
// failed. It prints from its onTestRunEnd without waiting, and comes last among vitest.config.ts's reporters, so
// nothing follows its line. What a test gives (its name, a skip's reason, an error's message) is printed as text,
// each control character escaped.
import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import { visibleText } from '../../src/client/usage/visible-text.js';

/** The module's file, relative to the root, with forward slashes. */
const fileOf = (root: string, module: TestModule) => relative(root, module.moduleId).split('\\').join('/');

/** `file > describe > name`, then `: reason` when the skip gave one (`ctx.skip(note)`); an `it.skip` says why in its name. */
function skippedLine(root: string, module: TestModule, test: TestCase): string {
  const result = test.result() as { note?: string };
  return `  ${visibleText(`${fileOf(root, module)} > ${test.fullName}${result.note ? `: ${result.note}` : ''}`)}`;
}

/** Each error outside a test, as `file > suite: first line of its message`. */
function errorLines(root: string, modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
  const line = (where: string, error: SerializedError) =>
    `  ${visibleText(`${where}: ${String(error.message).split('\n')[0]}`)}`;
  return [
    ...modules.flatMap((module) => {
      const file = fileOf(root, module);
      return [
        ...module.errors().map((error) => line(file, error)),
        ...[...module.children.allSuites()].flatMap((suite) =>
          suite.errors().map((error) => line(`${file} > ${suite.fullName}`, error)),
        ),
      ];
    }),
    ...unhandled.map((error) => line('(no test)', error)),
  ];
}

export default class SummaryReporter implements Reporter {
  private started = performance.now();
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError> = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else {
          counts.skipped++;
          skipped.push(skippedLine(this.root, module, test));
        }
      }
    }
    const errors = errorLines(this.root, modules, unhandled);
    counts.failed += errors.length;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    if (skipped.length) console.log(`\nskipped:\n${skipped.join('\n')}`);
    if (errors.length) console.log(`\nfailed outside a test:\n${errors.join('\n')}`);
    console.log(`\nwall time: ${seconds} s`);
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
