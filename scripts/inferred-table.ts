// Writes openapi/INFERRED.md, the table of everything the service's descriptions (Business, v1) mark `x-inferred`;
// `--check` fails if it is stale. The sandbox's own choices are listed in its description and on the docs site.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiFamilies, readBundle, repoRoot } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';
import { collectInferred, renderInferredTable } from './lib/inferred.js';

export const inferredTablePath = join(repoRoot, 'openapi', 'INFERRED.md');

// The service's two families only: the control API describes the sandbox's own choices, not guesses about the source.
const service = new Set(apiFamilies().map((api) => api.name));
const table = renderInferredTable(bundleAll().filter((api) => service.has(api.name)).flatMap((api) => collectInferred(api.name, readBundle(api))));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(inferredTablePath, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== table) {
    console.error('openapi/INFERRED.md is stale: run `npm run inferred` and commit the result.');
    process.exit(1);
  }
  console.log('openapi/INFERRED.md is up to date.');
} else {
  writeFileSync(inferredTablePath, table);
  console.log(`Wrote ${inferredTablePath}`);
}
