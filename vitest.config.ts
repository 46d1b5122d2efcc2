import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/lib/source-aliases.js';

export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['openapi/**/*.test.ts', 'scripts/**/*.test.ts', 'src/**/*.test.ts', 'contract-tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.e2e.test.ts', '**/*.interrupt.test.ts'],
    // temp.ts after postgres.ts: the cluster's own folder is outside the run's, so that at an interrupted run's
    // exit the cluster is stopped (its hook registered first) before the run's folder goes.
    globalSetup: ['scripts/test-setup/build.ts', 'scripts/test-setup/postgres.ts', 'scripts/test-setup/temp.ts', 'contract-tests/global-setup.ts'],
    testTimeout: 20_000,
    // Most of the suites' time is spent waiting on processes they start (sandboxes, Prism, PostgreSQL), so
    // two files at a time on two cores finish sooner than vitest's default of one per spare core.
    maxWorkers: 2,
    // A worker runs its test files one after another in one process, importing shared modules once: starting a
    // fresh process per file cost about 0.6 s of CPU each, 27 s in all. Every file cleans up after itself (its
    // servers, processes and folders) in afterAll, as it must anyway.
    isolate: false,
    // Starting PGlite (in memory) takes seconds when the machine is busy; the sandbox suites also run on
    // PostgreSQL beside it now, so a setup hook gets the same bound as a test.
    hookTimeout: 20_000,
    reporters: ['default', './scripts/test-setup/summary-reporter.ts'],
  },
});
