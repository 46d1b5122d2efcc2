// How far a JSON pointer into an answer's body stays within what the description describes, so the journey
// samples (scripts/site/journey-sample.ts) read the described part with the client's own types and the rest, which
// the client types as unknown (an open object the sandbox adds fields to), as unknown.

import { effectiveSchema, type JsonObject } from '../../src/client/lookup/index.js';
import { operationById, responseSchema } from '../../src/sandbox/contract/lookup.js';
import type { OpenApiDocument } from '../openapi/apis.js';

/** The schema of an operation's JSON answer for `status`, if the description gives one. */
export function answerSchema(doc: OpenApiDocument, operationId: string, status: string): JsonObject | undefined {
  const schema = responseSchema(doc, operationById(doc, operationId), status);
  return schema && typeof schema === 'object' && Object.keys(schema).length ? schema : undefined;
}

/** The schema one step down: an array's item for an index, an object's described property for a name. */
function child(doc: OpenApiDocument, schema: JsonObject, part: string): JsonObject | undefined {
  const own = effectiveSchema(doc, schema);
  if (/^\d+$/.test(part)) return own.items ? effectiveSchema(doc, own.items) : undefined;
  const branches = (own.oneOf ?? own.anyOf) as unknown[] | undefined;
  // A union reads a name with the client's types only when every branch describes it.
  if (branches) {
    const found = branches.map((b) => effectiveSchema(doc, b).properties?.[part]);
    return found.every(Boolean) ? effectiveSchema(doc, found[0]) : undefined;
  }
  return own.properties?.[part] ? effectiveSchema(doc, own.properties[part]) : undefined;
}

/**
 * How many parts of `parts` the description describes from `schema` on, and whether the value reached is typed
 * (its schema names a type the client gives, not an open `{}`).
 */
export function describedDepth(
  doc: OpenApiDocument,
  schema: JsonObject,
  parts: string[],
): { depth: number; typed: boolean } {
  let node: JsonObject | undefined = effectiveSchema(doc, schema);
  for (const [i, part] of parts.entries()) {
    node = child(doc, node, part);
    if (!node) return { depth: i, typed: false };
  }
  const typed = Boolean(node.type || node.enum || node.const !== undefined || node.properties || node.items);
  return { depth: parts.length, typed };
}
