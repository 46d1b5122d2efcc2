import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/test-setup/source-aliases.js';

// The example consumers' own tests (contract-tests/consumers/<name>/test/), each driving its consumer's code against
// a sandbox, with the trace of what the consumer reads of its answers (src/testing/usage-trace-setup.ts). Not part
// of `npm test`: the trace test (scripts/compat/usage-trace.command.test.ts) runs them, one consumer at a time.
export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['contract-tests/consumers/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    setupFiles: ['src/testing/usage-trace-setup.ts'],
    globalSetup: ['scripts/test-setup/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
