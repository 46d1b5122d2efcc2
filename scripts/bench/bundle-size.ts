// What a consumer's bundle weighs: esbuild (minified, ESM, platform-neutral) over an import of this package's
// source, gzip -9. Shared by `npm run bench`, `npm run size` and the budget test.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { repoRoot } from '../openapi/apis.js';

export interface BundleSize {
  minified: number;
  gzipped: number;
}

/** Size of the bundle made from `contents`, an ES module whose imports resolve from the repository root. */
export async function bundleSize(contents: string): Promise<BundleSize> {
  const out = await build({
    stdin: { contents, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

/** The import the budget is kept for: the Business client from the root entry, as most consumers write it. */
export const BUDGETED_IMPORT = "export { createBusinessClient } from './src/client/index.ts';";
export const budgetPath = join(repoRoot, 'scripts', 'bench', 'size-budget.json');

/** The recorded budget, and the target it may never be raised past (the size the client was built to). */
export function readBudget(): { import: string; gzippedBytes: number; targetBytes: number } {
  return JSON.parse(readFileSync(budgetPath, 'utf8')) as { import: string; gzippedBytes: number; targetBytes: number };
}

export function writeBudget(gzippedBytes: number): void {
  const { targetBytes } = readBudget();
  writeFileSync(budgetPath, `${JSON.stringify({ import: BUDGETED_IMPORT, gzippedBytes, targetBytes }, null, 2)}\n`);
}
