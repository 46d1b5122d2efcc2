import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/test-setup/source-aliases.js';

// `npm run test:e2e`: what a user does outside this repository. The documentation site and the sandbox's pages in
// Debian's Chromium (never a downloaded browser), and the first hour of a new project from the packed packages
// (scripts/checks/consumer.e2e.test.ts, guide-vitest.e2e.test.ts).
export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['scripts/**/*.e2e.test.ts', 'src/**/*.e2e.test.ts'],
    globalSetup: ['scripts/test-setup/build.ts'],
    testTimeout: 60_000,
    // A browser test that fails is run once more before it counts as failed, while a console button that sometimes
    // does not appear (scripts/site/console.e2e.test.ts, openConsole) is looked into; a second failure still fails
    // the run.
    retry: 1,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/test-setup/summary-reporter.ts'],
  },
});
