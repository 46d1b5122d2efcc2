// A bundled OpenAPI document as the runtime (sandbox) and the scripts look into it, and where the bundles live.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from 'ramp-api/lookup';

/** A bundled OpenAPI document, as far as this package looks into it: the client package's own reading of one. */
export type { OpenApiDocument };

/** The bundled descriptions the package `ramp-api` ships (`ramp-api/openapi/*`), wherever it is installed. */
function bundleDir(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve('ramp-api/openapi/business.json'));
  } catch (cause) {
    throw new Error(
      'Cannot find the descriptions of the package ramp-api (ramp-api/openapi/*.json): is it installed, and built (`npm run build`)?',
      { cause },
    );
  }
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
