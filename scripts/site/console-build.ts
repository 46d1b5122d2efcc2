// The console of the references (src/console/): bundled with esbuild into site/console/ (a small loader module,
// and the panel with Preact, CodeMirror, Ajv and the `ramp-api` client, loaded when first opened; nothing from a
// CDN), and added to each reference page
// with a block saying which API the page documents. `npm start` writes site/console/targets.json, the addresses
// of the sandbox and the mocks it started.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { listOperations } from '../../src/client/lookup/index.js';
import type { FreshFields } from '../../src/console/fresh.js';
import type { PageConfig } from '../../src/console/index.js';
import { REFUSALS } from '../../src/sandbox/core/refusals.js';
import type { OpenApiDocument } from '../openapi/apis.js';
import { repoRoot } from '../openapi/apis.js';
import { redocRoute } from './landing.js';
import { clientOf } from './samples.js';

const source = join(repoRoot, 'src', 'console');
export const CONSOLE_DIR = 'console';
export const TARGETS_FILE = `${CONSOLE_DIR}/targets.json`;

export interface ConsoleWeight {
  /** Gzipped bytes (level 9) every reference page loads: the loader, the chunks it imports, the stylesheet. */
  onEveryPage: number;
  /** Gzipped bytes loaded when a reader first opens the console (the panel's chunks; the bundle comes on top). */
  whenOpened: number;
  /** The same two for a journey's page and its journey console. */
  journeyPage: number;
  journeyOpened: number;
}

/** Builds the console into `<siteDir>/console/`; returns what it weighs, measured on the files written. */
export function buildConsole(siteDir: string): ConsoleWeight {
  const out = join(siteDir, CONSOLE_DIR);
  mkdirSync(out, { recursive: true });
  const { outputFiles, metafile } = buildSync({
    entryPoints: {
      console: join(source, 'index.tsx'),
      journey: join(source, 'journey', 'index.tsx'),
      'console-style': join(source, 'console.css'),
    },
    outdir: out,
    write: false,
    bundle: true,
    // The loader alone on every reference page; the panel (CodeMirror, Ajv, the client) when first opened.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(repoRoot, 'tsconfig.json'),
    absWorkingDir: repoRoot,
  });
  const gzipped = new Map<string, number>();
  for (const file of outputFiles) {
    writeFileSync(file.path, file.contents);
    gzipped.set(relative(repoRoot, file.path), gzipSync(file.contents, { level: 9 }).byteLength);
  }
  // What a page loads at once (its entry, what it imports statically, transitively, and the stylesheet), and what
  // opening its console adds (the chunks its dynamic imports reach, without those already loaded).
  const reach = (path: string, seen: Set<string>, kinds: string[]) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? [])
      if (kinds.includes(imported.kind)) reach(imported.path, seen, kinds);
  };
  const weigh = (entry: string) => {
    const eager = new Set<string>();
    for (const path of Object.keys(metafile.outputs))
      if (path.endsWith(`/${entry}.js`) || path.endsWith('/console-style.css'))
        reach(path, eager, ['import-statement']);
    const all = new Set<string>();
    for (const path of eager) reach(path, all, ['import-statement', 'dynamic-import']);
    const sum = (paths: Iterable<string>) => [...paths].reduce((total, path) => total + (gzipped.get(path) ?? 0), 0);
    return { page: sum(eager), opened: sum([...all].filter((path) => !eager.has(path) && path.endsWith('.js'))) };
  };
  const reference = weigh('console');
  const journey = weigh('journey');
  return {
    onEveryPage: reference.page,
    whenOpened: reference.opened,
    journeyPage: journey.page,
    journeyOpened: journey.opened,
  };
}

/** The family's token operation (unsecured, its path ending in /token), which the client signs in with. */
function tokenOperation(doc: OpenApiDocument) {
  const entry = listOperations(doc).find((e) => e.operation.security?.length === 0 && e.path.endsWith('/token'));
  return entry ? { operationId: entry.operationId, method: entry.method, path: entry.path } : undefined;
}

/**
 * Where the control API's reference (`page`, of `controlDoc`) shows each operation that a refusal's next step
 * names in the sandbox's refusal catalog, for the console to link to.
 */
export function controlLinks(controlDoc: OpenApiDocument, page: string): Record<string, string> {
  const named = new Set(
    Object.values(REFUSALS).flatMap((refusal) => {
      const next = (refusal as { next?: { operationId?: string } }).next;
      return next?.operationId ? [next.operationId] : [];
    }),
  );
  const links: Record<string, string> = {};
  for (const entry of listOperations(controlDoc))
    if (named.has(entry.operationId))
      links[entry.operationId] =
        `${page}${redocRoute(String(entry.operation.tags?.[0] ?? controlDoc.info.title), entry.operationId)}`;
  const missing = [...named].filter((operationId) => !links[operationId]);
  if (missing.length)
    throw new Error(`The refusal catalog names control operations the control API lacks: ${missing.join(', ')}.`);
  return links;
}

/** The family's client as the console uses it: the samples' factory, and its token operation. */
export function consoleClient(family: string, doc: OpenApiDocument) {
  const client = clientOf(family);
  const token = client.auth === 'credentials' ? tokenOperation(doc) : undefined;
  return { ...client, ...(token ? { token } : {}) };
}

export function consoleConfig(
  family: string,
  doc: OpenApiDocument,
  fresh: FreshFields = {},
  links?: Record<string, string>,
): PageConfig {
  const operations = listOperations(doc).map((entry) => entry.operationId);
  return {
    family,
    bundle: `openapi/${family}.json`,
    targets: TARGETS_FILE,
    client: consoleClient(family, doc),
    operations,
    fresh: Object.fromEntries(Object.entries(fresh).filter(([operationId]) => operations.includes(operationId))),
    ...(links ? { controlLinks: links } : {}),
  };
}

/** A reference page with the console added at the end of its body; Redoc's own markup is not touched. */
export function withConsole(html: string, config: PageConfig): string {
  if (!html.includes('</body>')) throw new Error(`The reference page of ${config.family} has no </body>.`);
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const tags = [
    `<link rel="stylesheet" href="${CONSOLE_DIR}/console-style.css">`,
    `<script type="application/json" id="ramp-console-config">${json}</script>`,
    `<script type="module" src="${CONSOLE_DIR}/console.js"></script>`,
  ].join('');
  const at = html.lastIndexOf('</body>');
  return `${html.slice(0, at)}${tags}${html.slice(at)}`;
}

/** Bytes as the README states them: kilobytes (1024 bytes), one decimal below 10 KB. */
export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;

/** Where the console sends by default: the sandbox and each family's mock, as `npm start` started them. */
export function writeTargets(siteDir: string, targets: { sandbox?: string; mocks: Record<string, string> }): void {
  mkdirSync(join(siteDir, CONSOLE_DIR), { recursive: true });
  writeFileSync(join(siteDir, TARGETS_FILE), `${JSON.stringify(targets, null, 2)}\n`);
}
