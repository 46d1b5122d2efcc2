// Vitest global setup: bundles every description and builds the sandbox's pages first, so tests always read
// bundles and serve pages of the current sources.
import { bundleAll } from '../lib/bundle.js';
import { buildSandboxPages } from '../build-sandbox-pages.js';

export default function setup(): void {
  // A nested contract run (contract-tests/broken-server.test.ts) reads the bundles its parent just wrote.
  if (process.env.CONTRACT_SKIP_BUNDLE === '1') return;
  bundleAll();
  buildSandboxPages();
}
