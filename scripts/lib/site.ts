// Builds site/: the landing page and one Redoc reference per API family (with TypeScript samples), all
// working offline.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distDir, readBundle, repoRoot } from './apis.js';
import { bundleAll } from './bundle.js';
import { collectInferred } from './inferred.js';
import { renderLanding } from './landing.js';
import { sampleForDocs } from './samples.js';
import { listOperations } from './openapi-lookup.js';

export const siteDir = join(repoRoot, 'site');
/** Redoc's "API docs by Redocly" badge loads its logo from a CDN; the site inlines a text version instead. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini-full.svg';
const INLINE_LOGO =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='62' height='14'><text x='0' y='11' font-family='sans-serif' font-size='11' fill='%23555'>Redocly</text></svg>";

export function buildSite(): { pages: string[] } {
  const apis = bundleAll();
  rmSync(siteDir, { recursive: true, force: true });
  mkdirSync(join(siteDir, 'openapi'), { recursive: true });
  const work = join(repoRoot, 'dist', 'docs');
  mkdirSync(work, { recursive: true });
  const inputs = apis.map((api) => ({ family: api.name, doc: readBundle(api), page: `${api.name}.html` }));

  for (const { family, doc, page } of inputs) {
    const withSamples = structuredClone(doc);
    for (const entry of listOperations(withSamples)) {
      // The label must equal the one listed under openapi.codeSamples in redocly.yaml, or Redoc hides the sample.
      entry.operation['x-codeSamples'] = [{ lang: 'TypeScript', label: 'TypeScript (ramp-api)', source: sampleForDocs(family, doc, entry) }];
    }
    const input = join(work, `${family}.json`);
    writeFileSync(input, JSON.stringify(withSamples));
    const output = join(siteDir, page);
    execFileSync(join(repoRoot, 'node_modules', '.bin', 'redocly'), ['build-docs', input, '--inlineBundle', '-o', output, '--title', `${doc.info.title} reference`], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const html = readFileSync(output, 'utf8');
    if (!html.includes(REDOC_LOGO)) throw new Error(`Redoc no longer links ${REDOC_LOGO}; re-check what ${page} loads from outside.`);
    writeFileSync(output, html.split(REDOC_LOGO).join(INLINE_LOGO));
    cpSync(join(distDir, `${family}.json`), join(siteDir, 'openapi', `${family}.json`));
    cpSync(join(distDir, `${family}.yaml`), join(siteDir, 'openapi', `${family}.yaml`));
  }
  const inferred = inputs.flatMap(({ family, doc }) => collectInferred(family, doc));
  writeFileSync(join(siteDir, 'index.html'), renderLanding(inputs, inferred));
  return { pages: ['index.html', ...inputs.map((i) => i.page)] };
}
