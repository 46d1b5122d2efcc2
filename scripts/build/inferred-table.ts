// Writes openapi/INFERRED.md, the table of everything the service's descriptions (Business, v1) mark `x-inferred`;
// `--check` fails if it is stale. The sandbox's own choices are listed in its description and on the docs site.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBundle, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { collectInferred, renderInferredTable } from '../openapi/inferred.js';

export const inferredTablePath = join(repoRoot, 'openapi', 'INFERRED.md');

// The service's two families, as scripts/checks/descriptions.test.ts checks: the sandbox's own choices are stated in
// its control API's description, not listed among the guesses about the service.
const table = renderInferredTable(
  bundleAll()
    .filter((api) => api.name !== SANDBOX_FAMILY)
    .flatMap((api) => collectInferred(api.name, readBundle(api))),
);
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
