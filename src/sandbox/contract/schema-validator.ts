// Validates values against the schemas of a bundled OpenAPI 3.1 document with Ajv in 2020-12 mode
// (set up in ajv-setup.ts), independently of Redocly. The sandbox's validators are compiled at build time
// (`standaloneValidators`, written to the package's dist/validators/ by `npm run build`) and loaded from there; a
// schema with no compiled validator, or a document that changed since, is compiled by Ajv when first used. Ajv
// itself is loaded only then.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';
import {
  AJV_OPTIONS,
  type AjvModules,
  formatAjvErrors,
  newAjv as newAjvWith,
  rewriteRefs,
  type SchemaValidator,
} from './ajv-setup.js';
import type { OpenApiDocument } from './document.js';

const require = createRequire(import.meta.url);

export { formatAjvErrors, type SchemaValidator } from './ajv-setup.js';

/** Ajv and its formats, required when a validator is first compiled rather than at every start (CommonJS). */
const ajvModules = (): AjvModules => ({
  Ajv2020: (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020,
  addFormats: require('ajv-formats') as typeof import('ajv-formats')['default'],
});

const newAjv = (doc: OpenApiDocument, id: string, extra: Options = {}): Ajv2020 =>
  newAjvWith(ajvModules(), doc, id, extra);

const sha256 = (...parts: string[]) =>
  parts.reduce((hash, part) => hash.update(part).update('\0'), createHash('sha256')).digest('hex');

/** A compiled validator's name: from the schema as the document has it. */
export const validatorName = (schema: unknown) => `v${sha256(JSON.stringify(schema)).slice(0, 24)}`;

/** What validators compiled for `doc` under `id` depend on: Ajv's version and settings, and the whole document. */
function documentKey(doc: OpenApiDocument, id: string): string {
  const { version } = JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string };
  return sha256(version, JSON.stringify(AJV_OPTIONS), id, JSON.stringify(doc));
}

/**
 * A CommonJS module with a validator for each of `schemas` (schemas of `doc`, as `compile` takes them), written
 * by Ajv's standalone code generation, and the key of what it was made from (`documentKey`).
 */
export function standaloneValidators(doc: OpenApiDocument, id: string, schemas: unknown[]): string {
  const ajv = newAjv(doc, id, { code: { source: true } });
  const names: Record<string, string> = {};
  for (const schema of schemas) {
    const name = validatorName(schema);
    if (names[name]) continue;
    names[name] = `${id}:${name}`;
    ajv.addSchema(rewriteRefs(schema, id) as object, names[name]);
  }
  const { default: standaloneCode } =
    require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
  return `${standaloneCode(ajv, names)}\nexports.documentKey = ${JSON.stringify(documentKey(doc, id))};\n`;
}

export interface ValidatorOptions {
  /** A module `standaloneValidators` wrote: its validators are used when it was made from this document. */
  precompiled?: string;
}

/** The validators of the module `file` by name, when it was made from `doc` under `id`; else none. */
export function loadPrecompiled(
  file: string | undefined,
  doc: OpenApiDocument,
  id: string,
): Record<string, ValidateFunction> {
  if (!file) return {};
  let module: Record<string, ValidateFunction> & { documentKey?: string };
  try {
    module = require(file) as typeof module;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return {}; // not built: compiled when used
    throw error;
  }
  return module.documentKey === documentKey(doc, id) ? module : {};
}

export function createSchemaValidator(
  doc: OpenApiDocument,
  id = 'urn:ramp-api:document',
  options: ValidatorOptions = {},
): SchemaValidator {
  let ajv: Ajv2020 | undefined;
  let precompiled: Record<string, ValidateFunction> | undefined;
  const compiled = new Map<string, ValidateFunction>();
  const compileAtRunTime = (schema: unknown): ValidateFunction => {
    ajv ??= newAjv(doc, id);
    return ajv.compile(rewriteRefs(schema, id) as object);
  };
  const compile = (schema: unknown): ((value: unknown) => string[]) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      precompiled ??= loadPrecompiled(options.precompiled, doc, id);
      const name = validatorName(schema);
      validate = Object.hasOwn(precompiled, name) ? precompiled[name]! : compileAtRunTime(schema);
      compiled.set(key, validate);
    }
    const fn = validate;
    return (value) => (fn(value) ? [] : formatAjvErrors(fn.errors));
  };
  return {
    validate: (schema, value) => compile(schema)(value),
    compile,
  };
}
