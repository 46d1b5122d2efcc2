// Writes dist/openapi/<api>.yaml and .json: single-file bundles of each description, for code generators.
import { relative } from 'node:path';
import { repoRoot } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';

for (const api of bundleAll()) {
  console.log(`${api.name}: ${relative(repoRoot, api.bundleYaml)}, ${relative(repoRoot, api.bundleJson)}`);
}
