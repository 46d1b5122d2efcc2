// The API families declared in redocly.yaml, and where their bundles live: the one list every script reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../../src/testing/repo.js';

export { repoRoot };
export const distDir = join(repoRoot, 'dist', 'openapi');
/** The same bundles inside the package ramp-api, which ships them as `ramp-api/openapi/*`. */
export const clientBundleDir = join(repoRoot, 'src', 'client', 'dist', 'openapi');

export interface ApiFamily {
  /** Name in redocly.yaml (`business`, `v1`), also the bundle's file name. */
  name: string;
  /** Root file of the hand-written description, relative to the repository. */
  root: string;
  bundleJson: string;
  bundleYaml: string;
}

/** The family in redocly.yaml that describes the sandbox's own control API, not the service. */
export const SANDBOX_FAMILY = 'sandbox';

/** The service's API families (`business`, `v1`): what Prism mocks and the contract suite covers. */
export function apiFamilies(): ApiFamily[] {
  return allApiFamilies().filter((api) => api.name !== SANDBOX_FAMILY);
}

/** Every API in redocly.yaml, the sandbox's control API included: what is bundled, typed, rendered and gated. */
export function allApiFamilies(): ApiFamily[] {
  const config = parse(readFileSync(join(repoRoot, 'redocly.yaml'), 'utf8')) as {
    apis?: Record<string, { root: string }>;
  };
  if (!config.apis || Object.keys(config.apis).length === 0) throw new Error('redocly.yaml declares no `apis`.');
  return Object.entries(config.apis).map(([name, { root }]) => ({
    name,
    root,
    bundleJson: join(distDir, `${name}.json`),
    bundleYaml: join(distDir, `${name}.yaml`),
  }));
}

export type { OpenApiDocument } from '../../src/sandbox/contract/document.js';

import type { OpenApiDocument } from '../../src/sandbox/contract/document.js';

export function readBundle(api: ApiFamily): OpenApiDocument {
  try {
    return JSON.parse(readFileSync(api.bundleJson, 'utf8')) as OpenApiDocument;
  } catch (cause) {
    throw new Error(`Cannot read the bundle of "${api.name}" at ${api.bundleJson}; run \`npm run bundle\` first.`, {
      cause,
    });
  }
}
