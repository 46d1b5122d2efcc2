// `npm run compat`: compares the descriptions with the released baseline in openapi/baseline/ and fails on
// anything that would break a consuming team. `--accept` makes the current descriptions the new baseline.
// `--consumers DIR` reads the consuming teams' usage files (`npx ramp-api usage`) and names whom each breaking
// change breaks or may break; `--fail-on any|consumers|seen` (default any) fails on every breaking change, on
// those that break or may break a known consumer, or only on those seen to break one.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareDocuments, renderCompatReport } from '../../src/client/usage/rules.js';
import { type OpenApiDocument, readBundle, repoRoot } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { gateWithConsumers } from './cli.js';

const baselineDir = join(repoRoot, 'openapi', 'baseline');
const apis = bundleAll();
if (process.argv.includes('--accept')) {
  mkdirSync(baselineDir, { recursive: true });
  for (const api of apis) copyFileSync(api.bundleJson, join(baselineDir, `${api.name}.json`));
  console.log(
    `Baseline updated: ${apis.map((a) => `openapi/baseline/${a.name}.json`).join(', ')}. Commit it with the release.`,
  );
  process.exit(0);
}
const results = apis.map((api) => {
  const file = join(baselineDir, `${api.name}.json`);
  if (!existsSync(file))
    return {
      api: api.name,
      changes: [{ breaking: false, where: api.name, what: 'no baseline yet (run npm run compat:accept)' }],
    };
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  return { api: api.name, changes: compareDocuments(baseline, readBundle(api)) };
});
if (process.argv.includes('--consumers')) process.exit(await gateWithConsumers(process.argv.slice(2), results, apis));
console.log(renderCompatReport(results));
const breaking = results.reduce((n, r) => n + r.changes.filter((c) => c.breaking).length, 0);
if (breaking) {
  console.error(
    `\n${breaking} breaking change(s). If they are intended, release a new version and run \`npm run compat:accept\`.`,
  );
  process.exit(1);
}
