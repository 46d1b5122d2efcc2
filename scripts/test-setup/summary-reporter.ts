// Vitest reporter that ends the run with each skipped test (its file, its name and the reason it gives), the wall
// time, and as the very last line `N passed, N failed, N skipped`, the line CI reads. It prints from its
// onTestRunEnd without waiting, and comes last among vitest.config.ts's reporters, so nothing follows its line.
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/** `file > describe > name`, then `: reason` when the skip gave one (`ctx.skip(note)`); an `it.skip` says why in its name. */
function skippedLine(root: string, module: TestModule, test: TestCase): string {
  const result = test.result() as { note?: string };
  const file = relative(root, module.moduleId).split('\\').join('/');
  return `  ${file} > ${test.fullName}${result.note ? `: ${result.note}` : ''}`;
}

export default class SummaryReporter implements Reporter {
  private started = performance.now();
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
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
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    if (skipped.length) console.log(`\nskipped:\n${skipped.join('\n')}`);
    console.log(`\nwall time: ${seconds} s`);
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
