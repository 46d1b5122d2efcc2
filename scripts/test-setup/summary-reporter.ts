// Vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`, and the wall time.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  private started = performance.now();

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    console.log(`\nwall time: ${seconds} s`);
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
