// Read helpers over a bundled description for the sandbox: operations by operationId, request and response
// schemas, body examples. The general ones (local $ref resolution, operations, allOf merged) are ramp-api/lookup's,
// imported from there.
import { type JsonObject, listOperations, type OperationEntry, resolveRef } from 'ramp-api/lookup';
import type { OpenApiDocument } from './document.js';

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

/** The request bodies the operation's examples give, by example name. */
export function bodyExamples(doc: OpenApiDocument, entry: OperationEntry): [string, unknown][] {
  if (!entry.operation.requestBody) return [];
  const media = resolveRef(doc, entry.operation.requestBody).content?.['application/json'];
  if (media?.examples)
    return Object.entries(media.examples as JsonObject).map(([name, ex]) => [name, resolveRef(doc, ex).value]);
  return 'example' in (media ?? {}) ? [['example', media.example]] : [];
}
