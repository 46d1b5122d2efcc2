// Validates values against the schemas of a bundled OpenAPI 3.1 document with Ajv in 2020-12 mode,
// independently of Redocly. Shared by the example checks and, later, the contract tests.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './document.js';

// ajv-formats is CommonJS: under NodeNext the default import is the whole module, the plugin its `default`.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

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
  if (Array.isArray(node)) node.forEach((item) => collectExtensionKeywords(item, into));
  else if (node && typeof node === 'object') {
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
      if (!value.startsWith(COMPONENT_REF)) throw new Error(`Unsupported $ref "${value}": bundle the description first.`);
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

export function createSchemaValidator(doc: OpenApiDocument, id = 'urn:ramp-api:document'): SchemaValidator {
  // strictRequired is off: a `then` branch may require a property the enclosing schema declares
  // (ramp/required-properties-defined lints that instead).
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_ANNOTATIONS, ...collectExtensionKeywords(doc, new Set())]) ajv.addKeyword(keyword);
  ajv.addSchema({ $id: id, $defs: rewriteRefs(doc.components?.schemas ?? {}, id) });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: unknown): ((value: unknown) => string[]) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(schema, id) as object);
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
