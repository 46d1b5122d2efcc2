// Validates values against the schemas of a bundled OpenAPI 3.1 document with Ajv in 2020-12 mode,
// independently of Redocly. The sandbox's validators are compiled at build time (`standaloneValidators`, written
// to the package's dist/validators/ by `npm run build`) and loaded from there; a schema with no compiled
// validator, or a document that changed since, is compiled by Ajv when first used. Ajv itself is loaded only then.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from './document.js';

const require = createRequire(import.meta.url);
const COMPONENT_REF = '#/components/schemas/';
/** OpenAPI's own schema keywords that JSON Schema 2020-12 does not know: annotations only. */
const OPENAPI_ANNOTATIONS = ['example', 'discriminator', 'xml', 'externalDocs'];

export interface SchemaValidator {
  /** Problems of `value` against `schema` (an inline schema from the document, refs and all); empty when valid. */
  validate(schema: unknown, value: unknown): string[];
  /** The same check compiled once, for a caller that validates many values against one schema. */
  compile(schema: unknown): (value: unknown) => string[];
}

function collectExtensionKeywords(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) collectExtensionKeywords(item, into);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) into.add(key);
      collectExtensionKeywords(value, into);
    }
  }
  return into;
}

/** Deep copy with every `#/components/schemas/X` ref pointed at `<base>#/$defs/X`. */
function rewriteRefs(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, base));
  if (!node || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      if (!value.startsWith(COMPONENT_REF))
        throw new Error(`Unsupported $ref "${value}": bundle the description first.`);
      copy[key] = `${base}#/$defs/${value.slice(COMPONENT_REF.length)}`;
    } else copy[key] = rewriteRefs(value, base);
  }
  return copy;
}

export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (\`${String(e.params.additionalProperty)}\`)` : '';
    return `${where} ${e.message ?? e.keyword}${extra}`;
  });
}

/** Ajv's settings for every validator, compiled at build time or when first used. */
// strictRequired is off: a `then` branch may require a property the enclosing schema declares
// (ramp/required-properties-defined lints that instead).
const AJV_OPTIONS = { strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true } satisfies Options;

/** Ajv set up for `doc`: its component schemas under `<id>#/$defs/`, its extension keywords as annotations. */
function newAjv(doc: OpenApiDocument, id: string, extra: Options = {}): Ajv2020 {
  // CommonJS packages, required when a validator is first compiled rather than at every start.
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats')['default'];
  const ajv = new Ajv({ ...AJV_OPTIONS, ...extra });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_ANNOTATIONS, ...collectExtensionKeywords(doc, new Set())]) ajv.addKeyword(keyword);
  ajv.addSchema({ $id: id, $defs: rewriteRefs(doc.components?.schemas ?? {}, id) });
  return ajv;
}

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
