// Small read helpers over a bundled description: operations by operationId, and local $ref resolution.
import type { OpenApiDocument } from './document.js';

/** The operation keys of an OpenAPI path item. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type JsonObject = Record<string, any>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** A JSON pointer (`#/paths/~1api~1token/post`) to the node at `parts`. */
export const jsonPointer = (parts: readonly (string | number)[]) =>
  `#/${parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

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
    current = ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((at, key) => at?.[key], doc);
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

export function operationById(doc: OpenApiDocument, operationId: string): OperationEntry {
  const found = listOperations(doc).find((o) => o.operationId === operationId);
  if (!found) throw new Error(`No operation "${operationId}" in ${doc.info.title}`);
  return found;
}

/** The schema of an operation's JSON request body, or of one of its responses, with its top-level $ref resolved. */
export function requestSchema(doc: OpenApiDocument, entry: OperationEntry): JsonObject {
  const body = resolveRef(doc, entry.operation.requestBody);
  return resolveRef(doc, body?.content?.['application/json']?.schema);
}

export function responseSchema(doc: OpenApiDocument, entry: OperationEntry, status: string): JsonObject {
  const response = resolveRef(doc, entry.operation.responses?.[status]);
  return resolveRef(doc, response?.content?.['application/json']?.schema);
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

/** The request bodies the operation's examples give, by example name. */
export function bodyExamples(doc: OpenApiDocument, entry: OperationEntry): [string, unknown][] {
  if (!entry.operation.requestBody) return [];
  const media = resolveRef(doc, entry.operation.requestBody).content?.['application/json'];
  if (media?.examples)
    return Object.entries(media.examples as JsonObject).map(([name, ex]) => [name, resolveRef(doc, ex).value]);
  return 'example' in (media ?? {}) ? [['example', media.example]] : [];
}
