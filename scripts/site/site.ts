// Builds site/: the landing page, one Redoc reference per API (with TypeScript samples and the console that
// sends requests, site/console/) and the guides (site/guides/, from docs/guides/), all working offline; the sandbox control API's page is also the one the
// sandbox serves at /sandbox/docs.

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { listOperations } from '../../src/client/lookup/index.js';
import type { UsageFile } from '../../src/client/usage/usage-file.js';
import { referencePagePath } from '../../src/sandbox/contract/reference.js';
import { type DocJourney, journeysUsing, journeyTitle, readDocJourneys } from '../journeys/journey-docs.js';
import {
  allApiFamilies,
  distDir,
  type OpenApiDocument,
  readBundle,
  repoRoot,
  SANDBOX_FAMILY,
} from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { collectInferred } from '../openapi/inferred.js';
import { type RedoclyJob, runRedoclyJob, runRedoclyJobAsync } from '../openapi/redocly.js';
import { buildConsole, consoleConfig, controlLinks, withConsole } from './console-build.js';
import { UNUSED_PAGE, unusedPage, withConsumers } from './consumers.js';
import { freshFields } from './fresh-fields.js';
import { writeGuideSite } from './guide-pages.js';
import { readGuides } from './guides.js';
import { writeJourneyPages } from './journey-pages.js';
import { renderLanding } from './landing.js';
import { sampleForDocs } from './samples.js';

export const siteDir = join(repoRoot, 'site');
/** Redoc's "API docs by Redocly" badge loads its logo from a CDN; the site inlines a text version instead. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini-full.svg';
const INLINE_LOGO =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='62' height='14'><text x='0' y='11' font-family='sans-serif' font-size='11' fill='%23555'>Redocly</text></svg>";

const redoclyVersion = () =>
  (
    JSON.parse(readFileSync(join(repoRoot, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** The marker a reference page carries of what it was built from, so an unchanged one is not built again. */
const builtFrom = (hash: string) => `<meta name="ramp-api-reference" content="sha256:${hash}">`;

/** The journeys that call an operation, as a sentence of its description in the site's reference. */
function journeysSentence(journeys: DocJourney[], family: string, operationId: string): string {
  const uses = journeysUsing(journeys, family, operationId);
  if (!uses.length) return '';
  const links = uses.map(
    ({ journey, steps }) =>
      `[${journeyTitle(journey)}](journeys/${journey.slug}.html) (step ${steps.map((s) => `\`${s}\``).join(', ')})`,
  );
  return `\n\n**Journeys that use it:** ${links.join('; ')}.`;
}

/**
 * What rendering one API's reference takes, or null when `output` was built from the same input already. With
 * `journeys` (the site's copy), each operation's description also names the journeys that call it.
 */
function referenceJob(
  family: string,
  doc: OpenApiDocument,
  output: string,
  journeys: DocJourney[] = [],
): RedoclyJob | null {
  const withSamples = structuredClone(doc);
  for (const entry of listOperations(withSamples)) {
    // The label must equal the one listed under openapi.codeSamples in redocly.yaml, or Redoc hides the sample.
    entry.operation['x-codeSamples'] = [
      { lang: 'TypeScript', label: 'TypeScript (ramp-api)', source: sampleForDocs(family, doc, entry) },
    ];
    const sentence = journeysSentence(journeys, family, entry.operationId);
    if (sentence) entry.operation.description = `${entry.operation.description ?? ''}${sentence}`;
  }
  const text = JSON.stringify(withSamples);
  const marker = builtFrom(createHash('sha256').update(`${redoclyVersion()}\n${INLINE_LOGO}\n${text}`).digest('hex'));
  if (existsSync(output) && readFileSync(output, 'utf8').includes(marker)) return null;
  const work = join(repoRoot, 'dist', 'docs');
  mkdirSync(work, { recursive: true });
  mkdirSync(dirname(output), { recursive: true });
  const input = join(work, `${family}.${process.pid}.json`);
  writeFileSync(input, text);
  // Written beside, then renamed: a sandbox serving the page meanwhile sends the old one or the new.
  const partial = join(dirname(output), `.${process.pid}.${basename(output)}`);
  // Removed also when this process ends meanwhile (an interrupted build or test run).
  const clean = () => {
    process.off('exit', clean);
    rmSync(input, { force: true });
    rmSync(partial, { force: true });
  };
  process.once('exit', clean);
  return {
    runs: [['build-docs', input, '--inlineBundle', '-o', partial, '--title', `${doc.info.title} reference`]],
    finish: () => {
      const html = readFileSync(partial, 'utf8');
      if (!html.includes(REDOC_LOGO))
        throw new Error(`Redoc no longer links ${REDOC_LOGO}; re-check what ${basename(output)} loads from outside.`);
      if (!html.includes('<head>'))
        throw new Error(`Redoc's page for ${family} has no <head> to mark what it was built from.`);
      writeFileSync(partial, html.split(REDOC_LOGO).join(INLINE_LOGO).replace('<head>', `<head>${marker}`));
      renameSync(partial, output);
    },
    clean,
  };
}

/**
 * Renders one API's reference with Redoc (`redocly build-docs --inlineBundle`) into `output`: a page that works
 * offline, with a TypeScript sample per operation. Returns false, and leaves the file, when `output` was built
 * from the same input already.
 */
export function writeReference(
  family: string,
  doc: OpenApiDocument,
  output: string,
  journeys: DocJourney[] = [],
): boolean {
  const job = referenceJob(family, doc, output, journeys);
  if (job) runRedoclyJob(job);
  return job !== null;
}

/** writeReference, without blocking this process while Redoc renders. */
export async function writeReferenceAsync(family: string, doc: OpenApiDocument, output: string): Promise<boolean> {
  const job = referenceJob(family, doc, output);
  if (job) await runRedoclyJobAsync(job);
  return job !== null;
}

const sandboxApi = () => {
  const api = allApiFamilies().find((a) => a.name === SANDBOX_FAMILY);
  if (!api) throw new Error(`redocly.yaml declares no "${SANDBOX_FAMILY}" API.`);
  return api;
};

/** The sandbox control API's reference, where the sandbox serves it from (/sandbox/docs) and the package ships it. */
export function writeSandboxReference(): string {
  const api = sandboxApi();
  writeReference(api.name, readBundle(api), referencePagePath());
  return referencePagePath();
}

/** writeSandboxReference, without blocking this process while Redoc renders. */
export async function writeSandboxReferenceAsync(): Promise<string> {
  const api = sandboxApi();
  await writeReferenceAsync(api.name, readBundle(api), referencePagePath());
  return referencePagePath();
}

/**
 * Builds the site. `usages`: the known consumers' usage files (`npm run docs -- --consumers DIR`), named in the
 * references; `onStep` hears each step as it begins (npm start shows them: scripts/site/progress.ts).
 */
export function buildSite({
  usages,
  onStep = () => {},
}: {
  usages?: UsageFile[];
  onStep?: (what: string) => void;
} = {}): { pages: string[] } {
  onStep('bundling the descriptions');
  const apis = bundleAll();
  rmSync(siteDir, { recursive: true, force: true });
  mkdirSync(join(siteDir, 'openapi'), { recursive: true });
  const inputs = apis.map((api) => ({ family: api.name, doc: readBundle(api), page: `${api.name}.html` }));
  const control = inputs.find((input) => input.family === SANDBOX_FAMILY);
  const links = control ? controlLinks(control.doc, control.page) : undefined;
  const journeys = readDocJourneys(apis.map((api, index) => ({ api, doc: inputs[index]!.doc })));
  const fresh = freshFields(inputs);

  for (const { family, doc, page } of inputs) {
    // The sandbox's page is the one it serves itself: built (or kept) there, and copied, unless the site's copy
    // names journeys that use its operations.
    onStep(`the ${family} reference and its console`);
    const usedByJourneys = journeys.some((j) => j.calls.some((c) => c.family === family));
    if (family === SANDBOX_FAMILY && !usedByJourneys) cpSync(writeSandboxReference(), join(siteDir, page));
    else writeReference(family, usages ? withConsumers(family, doc, usages) : doc, join(siteDir, page), journeys);
    // The site's copy gets the console; the page the sandbox serves at /sandbox/docs stays as Redoc made it.
    const built = join(siteDir, page);
    writeFileSync(built, withConsole(readFileSync(built, 'utf8'), consoleConfig(family, doc, fresh, links)));
    cpSync(join(distDir, `${family}.json`), join(siteDir, 'openapi', `${family}.json`));
    cpSync(join(distDir, `${family}.yaml`), join(siteDir, 'openapi', `${family}.yaml`));
  }
  onStep("the console's script");
  buildConsole(siteDir);
  onStep('the landing page, the guides and the journeys');
  const inferred = inputs.flatMap(({ family, doc }) => collectInferred(family, doc));
  const guides = readGuides();
  const references = inputs.map(({ doc, page }) => ({ title: `${doc.info.title} reference`, page }));
  const journeyPages = writeJourneyPages(join(siteDir, 'journeys'), journeys, inputs, references, fresh);
  const guidePages = writeGuideSite(join(siteDir, 'guides'), guides, [
    ...references,
    { title: 'Journeys', page: 'journeys/index.html' },
  ]);
  writeFileSync(join(siteDir, 'index.html'), renderLanding(inputs, inferred, guides, journeys));
  if (usages) writeFileSync(join(siteDir, UNUSED_PAGE), unusedPage(inputs, usages));
  return {
    pages: [
      'index.html',
      ...(usages ? [UNUSED_PAGE] : []),
      ...inputs.map((i) => i.page),
      ...guidePages.map((page) => `guides/${page}`),
      ...journeyPages.map((page) => `journeys/${page}`),
    ],
  };
}
