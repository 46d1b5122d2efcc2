import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/test-setup/source-aliases.js';

// `npm run test:interrupts`: whole runs (`npm start`, a vitest run of this repository) stopped by Ctrl-C or
// SIGTERM at several points, and what they leave behind (scripts/checks/leftovers.interrupt.test.ts); and the sandbox
// under attack, its resident memory measured: slow bodies, a full disk, refused writes at a quota, large answers
// under many queries (src/sandbox/**/*.interrupt.test.ts). Apart from `npm test`, which it would slow by minutes of
// CPU; CI runs it after `npm test`.
export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['scripts/**/*.interrupt.test.ts', 'src/**/*.interrupt.test.ts'],
    // The runs start the built sandbox.
    globalSetup: ['scripts/test-setup/build.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    maxConcurrency: 2,
    reporters: ['default', './scripts/test-setup/summary-reporter.ts'],
  },
});
