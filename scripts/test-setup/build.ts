// Vitest global setup: everything `npm run build` makes, from the current sources, before any test runs (the
// bundles the tests read, the pages the sandbox serves, its PGlite snapshot, and both packages compiled), so
// the tests that start processes start the built packages, as a consumer runs them.
import { buildAll } from '../build/build-all.js';

export default async function setup(): Promise<void> {
  // A nested contract run (contract-tests/broken-server.test.ts) uses what its parent just built.
  if (process.env.CONTRACT_SKIP_BUNDLE === '1') return;
  await buildAll();
}
