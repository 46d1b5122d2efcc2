import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:commands`: the commands run as processes, as a person at a terminal or a CI job runs them (the
// built packages): the sandbox's command (its options, refusals, signals and a SIGKILL right after a 201), `npx
// ramp-api-sandbox journeys` (against a sandbox and a stand-in deployment), `npx ramp-api usage`, `npm run compat
// -- --consumers DIR` and `--explain ID`, Redocly's `diff` over the compatibility rules' cases, `npm run
// journeys:report` given the wrong file, and `npm start` and `npm run mock` (a bad port, SIGTERM to npm, a bundle
// rewritten under a running mock). What they call is tested in process by `npm test`; apart from it so that it
// stays fast. CI runs it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['scripts/**/*.command.test.ts', 'src/**/*.command.test.ts'],
    exclude: ['**/node_modules/**'],
    // The ledger of the source document is npm test's: a row's test file runs there.
    reporters: ['dot', './scripts/test-setup/summary-reporter.ts'],
  },
});
