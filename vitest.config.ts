import { defineConfig } from 'vitest/config';
import StaticChecksFirst from './scripts/test-setup/sequencer.js';
import { sourceAliases } from './scripts/test-setup/source-aliases.js';
import { BASELINE_WASM_FLAG } from './src/sandbox/store/wasm-tiering.js';

export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['openapi/**/*.test.ts', 'scripts/**/*.test.ts', 'src/**/*.test.ts', 'contract-tests/**/*.test.ts'],
    // Apart, each a command of its own that CI runs: the browser and new-project tests (`npm run test:e2e`), whole
    // runs interrupted and the sandbox under attack (`test:interrupts`), the sandbox suites on PostgreSQL
    // (`test:postgres`) and the commands run as processes (`test:commands`), which also runs the example consumers'
    // own tests (vitest.consumers.config.ts) for the trace of what they read.
    exclude: [
      '**/node_modules/**',
      '**/*.e2e.test.ts',
      '**/*.interrupt.test.ts',
      '**/*.postgres.test.ts',
      '**/*.command.test.ts',
      'contract-tests/consumers/**',
    ],
    // The sandbox suites run on PGlite in memory here; `npm run test:postgres` (vitest.postgres.config.ts) runs
    // them on a PostgreSQL server.
    provide: { stores: ['PGlite'] },
    // The build, the run's temporary folder and the Prism mocks (and the PostgreSQL cluster of a run on
    // PostgreSQL), at once where they can be.
    globalSetup: ['scripts/test-setup/run.ts'],
    testTimeout: 20_000,
    // Much of the suites' time is spent waiting on processes they start (sandboxes, Prism), so
    // two files at a time on two cores finish sooner than vitest's default of one per spare core.
    maxWorkers: 2,
    // The static checks (lint and the type check, run as processes) first, then vitest's own order.
    sequence: { sequencer: StaticChecksFirst },
    // A worker runs its test files one after another in one process, importing shared modules once rather than
    // starting a fresh process per file. Every file cleans up after itself (its servers, processes and folders) in
    // afterAll, as it must anyway.
    isolate: false,
    // A worker starts PGlite stores often and uses each briefly: V8 keeps PGlite's WebAssembly on its baseline
    // compiler, as the sandbox command does for its start (src/sandbox/store/wasm-tiering.ts), instead of
    // recompiling it in every worker for a peak speed no test reaches (the CPU it saves: BENCHMARKS.md).
    execArgv: [BASELINE_WASM_FLAG],
    // Starting PGlite (in memory) takes seconds when the machine is busy, and the sandbox suites also run on
    // PostgreSQL: a setup hook gets the same bound as a test.
    hookTimeout: 20_000,
    // Short: a dot per test, then the failures and the totals; the ledger of the source document held to the run
    // (a row's test must have passed); then the skipped tests with their reasons, and last the count line CI reads.
    reporters: ['dot', './scripts/test-setup/ledger-reporter.ts', './scripts/test-setup/summary-reporter.ts'],
    // What a test prints is shown when it fails, with its failure; a passing test's output is not.
    silent: 'passed-only',
  },
});
