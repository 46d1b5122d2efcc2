// Test support: where this checkout is, and its bundled descriptions as `npm run bundle` (the tests' global
// setup) wrote them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** `dist/openapi/<name>.json` of this checkout, parsed. */
export function readBundleJson<T = { webhooks?: Record<string, unknown>; paths?: Record<string, unknown> }>(
  name: string,
): T {
  return JSON.parse(readFileSync(join(repoRoot, 'dist', 'openapi', `${name}.json`), 'utf8')) as T;
}
