// Builds the sandbox's pages (src/sandbox/pages/) into src/sandbox/dist/pages/, which the package ships and the
// sandbox serves: one minified ES module per page (Preact bundled in, no CDN), the stylesheet, and each page's HTML.
// `npm run build:pages`; also run by `npm run build`, `npm run sandbox`, `npm start` and the tests' global setup.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { repoRoot } from '../openapi/apis.js';

const source = join(repoRoot, 'src', 'sandbox', 'pages');
export const sandboxPagesDir = join(repoRoot, 'src', 'sandbox', 'dist', 'pages');

/** Each page: its script (src/sandbox/pages/<name>.tsx) and its title. */
export const PAGES = {
  dashboard: 'Ramp sandbox: dashboard',
  kyc: 'Identity verification (sandbox)',
  checkout: 'Checkout (sandbox)',
};

export function buildSandboxPages(out = sandboxPagesDir): string[] {
  mkdirSync(out, { recursive: true });
  const { outputFiles } = buildSync({
    entryPoints: [...Object.keys(PAGES).map((name) => join(source, `${name}.tsx`)), join(source, 'pages.css')],
    outdir: out,
    write: false,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const template = readFileSync(join(source, 'page.html'), 'utf8');
  const files = new Map<string, string | Uint8Array>(outputFiles.map((file) => [file.path, file.contents]));
  for (const [name, title] of Object.entries(PAGES))
    files.set(join(out, `${name}.html`), template.replaceAll('{{title}}', title).replaceAll('{{script}}', name));
  // Each file written beside and renamed, and nothing removed first: a sandbox serving the pages while they are
  // built again (npm start, npm run sandbox, a test run) sends the old file or the new, never half of one.
  for (const [path, contents] of files) {
    const partial = join(dirname(path), `.${process.pid}.${basename(path)}`);
    writeFileSync(partial, contents);
    renameSync(partial, path);
  }
  // What an earlier build made that this one does not.
  for (const name of readdirSync(out))
    if (!files.has(join(out, name)) && !name.startsWith('.')) rmSync(join(out, name), { force: true });
  return Object.keys(PAGES);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pages = buildSandboxPages();
  console.log(`Built ${pages.join(', ')} into ${sandboxPagesDir}`);
}
