// The console's heavy part (CodeMirror, Ajv, the ramp-api client), loaded only when a reader first opens the
// console, so a reference page that is only read carries the small loader (index.tsx) alone.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { runtimeSchemaValidator } from '../sandbox/contract/ajv-setup.js';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import { createRouter, type Route } from '../sandbox/contract/router.js';

/** @public Taken from the module ../index.tsx loads with import(). */
export { Console } from './console.js';

// ajv-formats is CommonJS: its default export, however the bundler presents it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => unknown;

/** The family's routes, checked with Ajv set up as the sandbox sets it up, compiling each schema when first used. */
export function routesOf(family: string, doc: OpenApiDocument): readonly Route[] {
  return createRouter([{ family, doc }], (_family, document) =>
    runtimeSchemaValidator({ Ajv2020, addFormats }, document),
  ).routes;
}
