// Ajv as every validator of the descriptions sets it up (2020-12 mode, the components under `$defs`, OpenAPI's
// and the extensions' keywords as annotations), without Node: the sandbox and the scripts reach it through
// schema-validator.ts, and the documentation site's console bundles it for the browser with the same settings.
import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from './document.js';

const COMPONENT_REF = '#/components/schemas/';
/** OpenAPI's own schema keywords that JSON Schema 2020-12 does not know: annotations only. */
const OPENAPI_ANNOTATIONS = ['example', 'discriminator', 'xml', 'externalDocs'];

/** Ajv's settings for every validator, compiled at build time or when first used. */
// strictRequired is off: a `then` branch may require a property the enclosing schema declares
// (ramp/required-properties-defined lints that instead).
export const AJV_OPTIONS = {
  strict: true,
  strictRequired: false,
  allErrors: true,
  allowUnionTypes: true,
} satisfies Options;

/** The two packages a validator needs, loaded by the caller: lazily in the sandbox, bundled in the browser. */
export interface AjvModules {
  Ajv2020: typeof Ajv2020;
  addFormats: (ajv: Ajv2020) => unknown;
}

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
export function rewriteRefs(node: unknown, base: string): unknown {
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

/** One line per problem: the value's JSON pointer (`(root)` for the whole value), then the schema's words. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (\`${String(e.params.additionalProperty)}\`)` : '';
    return `${where} ${e.message ?? e.keyword}${extra}`;
  });
}

/** Ajv set up for `doc`: its component schemas under `<id>#/$defs/`, its extension keywords as annotations. */
export function newAjv(modules: AjvModules, doc: OpenApiDocument, id: string, extra: Options = {}): Ajv2020 {
  const ajv = new modules.Ajv2020({ ...AJV_OPTIONS, ...extra });
  modules.addFormats(ajv);
  for (const keyword of [...OPENAPI_ANNOTATIONS, ...collectExtensionKeywords(doc, new Set())]) ajv.addKeyword(keyword);
  ajv.addSchema({ $id: id, $defs: rewriteRefs(doc.components?.schemas ?? {}, id) });
  return ajv;
}

/** A validator that compiles each schema when first used (no precompiled module): what the browser runs. */
export function runtimeSchemaValidator(
  modules: AjvModules,
  doc: OpenApiDocument,
  id = 'urn:ramp-api:document',
): SchemaValidator {
  let ajv: Ajv2020 | undefined;
  const compiled = new Map<string, (value: unknown) => string[]>();
  const compile = (schema: unknown) => {
    const key = JSON.stringify(schema);
    let check = compiled.get(key);
    if (!check) {
      ajv ??= newAjv(modules, doc, id);
      const validate = ajv.compile(rewriteRefs(schema, id) as object);
      check = (value) => (validate(value) ? [] : formatAjvErrors(validate.errors));
      compiled.set(key, check);
    }
    return check;
  };
  return { validate: (schema, value) => compile(schema)(value), compile };
}
