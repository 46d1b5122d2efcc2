// A bundled OpenAPI document as the runtime (sandbox) and the scripts look into it, and where the bundles live.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A bundled OpenAPI document, as far as this package looks into it. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary?: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** `dist/openapi/` of this package: found from this module in the repository (src/) and in the package (dist/lib/). */
export function bundleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'openapi');
    dir = dirname(dir);
  }
  throw new Error('Cannot find the ramp-api package root (no package.json above this module).');
}

/** The bundle `dist/openapi/<name>.json`, with a message that says how to make it when it is missing. */
export function readBundleFile(name: string, dir = bundleDir()): OpenApiDocument {
  const file = join(dir, `${name}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  } catch (cause) {
    throw new Error(`Cannot read the bundle of "${name}" at ${file}; run \`npm run bundle\` first.`, { cause });
  }
}
