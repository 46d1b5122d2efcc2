// The control API's reference as the docs site shows it (`sandbox.html`: Redoc with a TypeScript sample per
// operation, working offline), which the sandbox serves at /sandbox/docs. `npm run bundle` (and so `npm run
// build` and `npm pack`), `npm run docs` and `npm run sandbox` write it beside the compiled sandbox, so the
// package ships it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sandboxDistDir } from '../core/dist-dir.js';
import type { ValidatorFor } from './router.js';
import { createSchemaValidator } from './schema-validator.js';

const REFERENCE_PAGE = 'reference.html';

/**
 * The validators the build compiled for a set of schemas (`<name>.cjs`: a family's routes, or `v1-events`), see
 * scripts/build/build-validators.ts.
 */
export function precompiledValidators(name: string): string {
  return join(sandboxDistDir(), 'validators', `${name}.cjs`);
}

/** The sandbox's validator of one family's schemas: the build's precompiled module, or Ajv where there is none. */
export const precompiledValidator: ValidatorFor = (family, doc) =>
  createSchemaValidator(doc, validatorId(family), { precompiled: precompiledValidators(family) });

/** The id a set of schemas is validated under (the base of its component schemas' refs), at run and build time. */
export function validatorId(name: string): string {
  return `urn:ramp-api:${name}`;
}

export function referencePagePath(): string {
  return join(sandboxDistDir(), REFERENCE_PAGE);
}

/** The page, or undefined when it has not been built (a checkout where no build, bundle or docs run made it). */
export async function readReferencePage(file = referencePagePath()): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
