// ramp-api/lookup: small read helpers over a bundled description (operations, local $ref resolution, allOf
// merged), shared by the usage extractor and compatibility rules of this package and by the sandbox.
import { HTTP_METHODS } from '../core/operations.js';

export { HTTP_METHODS } from '../core/operations.js';
export type JsonObject = Record<string, any>;

/** A bundled OpenAPI document, as far as these helpers look into it. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary?: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export const isJsonObject = (value: unknown): value is JsonObject =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** One token of a JSON pointer (RFC 6901) as the pointer writes it: `~` as `~0`, then `/` as `~1`. */
export const escapePointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** One token of a JSON pointer as it names a key: `~1` as `/`, then `~0` as `~`. */
export const unescapePointerToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** A JSON pointer (`#/paths/~1api~1token/post`) to the node at `parts`. */
export const jsonPointer = (parts: readonly (string | number)[]) =>
  `#/${parts.map((p) => escapePointerToken(String(p))).join('/')}`;

/** The parts of a local reference or JSON pointer (`#/a/b~1c` or `/a/b~1c`), unescaped. */
export const pointerParts = (pointer: string): string[] => {
  const path = pointer.replace(/^#?\//, '');
  return path === '' ? [] : path.split('/').map(unescapePointerToken);
};

export interface OperationEntry {
  operationId: string;
  method: string;
  path: string;
  operation: JsonObject;
  /** Path-item and operation parameters, resolved. */
  parameters: JsonObject[];
}

export function resolveRef<T = JsonObject>(doc: OpenApiDocument, node: unknown): T {
  let current: any = node;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`Too many $ref hops at ${String(current.$ref)}`);
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local refs are supported, got ${ref}`);
    current = pointerParts(ref).reduce<any>((at, key) => at?.[key], doc);
    if (current === undefined) throw new Error(`Unresolved $ref ${ref}`);
  }
  return current as T;
}

export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, JsonObject][]) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: unknown) =>
        resolveRef(doc, p),
      );
      entries.push({ operationId: String(operation.operationId), method, path, operation, parameters });
    }
  }
  return entries;
}

/** The schema with its `$ref` resolved and its `allOf` parts merged into one (properties and `required` combined). */
export function effectiveSchema(doc: OpenApiDocument, node: unknown, depth = 0): JsonObject {
  const schema = resolveRef(doc, node) as JsonObject;
  if (!isJsonObject(schema) || !Array.isArray(schema.allOf) || depth > 20) return schema;
  const { allOf, ...own } = schema;
  const merged: JsonObject = {};
  for (const part of [...(allOf as unknown[]), own].map((p) => effectiveSchema(doc, p, depth + 1))) {
    const properties = { ...(merged.properties ?? {}) };
    for (const [name, child] of Object.entries((part.properties ?? {}) as JsonObject)) {
      properties[name] =
        name in properties
          ? { ...effectiveSchema(doc, properties[name], depth + 1), ...effectiveSchema(doc, child, depth + 1) }
          : child;
    }
    const required = [...new Set([...(merged.required ?? []), ...(part.required ?? [])])];
    Object.assign(merged, part, { properties, required });
  }
  if (!Object.keys(merged.properties).length) delete merged.properties;
  if (!merged.required.length) delete merged.required;
  return merged;
}
