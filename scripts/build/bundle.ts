// Writes dist/openapi/<api>.yaml and .json: single-file bundles of each description, for code generators; and
// the sandbox control API's rendered reference beside the compiled sandbox (src/sandbox/dist/reference.html),
// which the sandbox serves at /sandbox/docs and `npm run build` ships.
import { relative } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { writeSandboxReference } from '../site/site.js';

for (const api of bundleAll()) {
  console.log(`${api.name}: ${relative(repoRoot, api.bundleYaml)}, ${relative(repoRoot, api.bundleJson)}`);
}
console.log(`sandbox control API reference: ${relative(repoRoot, writeSandboxReference())}`);
