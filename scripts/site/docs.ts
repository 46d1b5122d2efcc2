// Builds the documentation site into site/ (landing page, Business and v1 references, bundles).
import { join, relative } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { buildSite, siteDir } from './site.js';

const { pages } = buildSite();
console.log(`Built ${pages.map((p) => relative(repoRoot, join(siteDir, p))).join(', ')}`);
