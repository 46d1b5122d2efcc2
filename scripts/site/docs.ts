// Builds the documentation site into site/ (landing page, Business and v1 references, bundles). With
// `--consumers DIR`, the references name the known consumers of each operation and event from their usage
// files, and site/unused.html lists what none of them uses.
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { readConsumers } from '../compat/consumers.js';
import { repoRoot } from '../openapi/apis.js';
import { buildSite, siteDir } from './site.js';

const { values } = parseArgs({ options: { consumers: { type: 'string' } } });
const usages = values.consumers === undefined ? undefined : await readConsumers(values.consumers);
const { pages } = buildSite(usages ? { usages } : {});
console.log(`Built ${pages.map((p) => relative(repoRoot, join(siteDir, p))).join(', ')}`);
