// What a bundle holds under an operation's responses or an event's payload: every schema pointer reachable from
// there (through `$ref`s, properties, items and the parts of `allOf`, `oneOf` and `anyOf`).
import { HTTP_METHODS, isJsonObject, type JsonObject, type OpenApiDocument } from '../lookup/index.js';
import type { FamilyBundle } from './bundles.js';
import { childPointer, declaredAt, nodeAt } from './pointers.js';

/** Every pointer reachable from the schema `node` at `pointer`, added to `out`. */
function reachableFrom(doc: OpenApiDocument, node: unknown, pointer: string, out: Set<string>): Set<string> {
  const seen = out.has(pointer);
  out.add(pointer);
  const at = declaredAt(doc, node, pointer);
  if (seen || (at.pointer !== pointer && out.has(at.pointer)) || !isJsonObject(at.node)) return out;
  out.add(at.pointer);
  const schema = at.node;
  for (const [name, child] of Object.entries((schema.properties ?? {}) as JsonObject))
    reachableFrom(doc, child, childPointer(at.pointer, 'properties', name), out);
  if (isJsonObject(schema.items)) reachableFrom(doc, schema.items, childPointer(at.pointer, 'items'), out);
  if (isJsonObject(schema.additionalProperties))
    reachableFrom(doc, schema.additionalProperties, childPointer(at.pointer, 'additionalProperties'), out);
  for (const keyword of ['allOf', 'oneOf', 'anyOf'])
    if (Array.isArray(schema[keyword]))
      for (const [i, part] of (schema[keyword] as unknown[]).entries())
        reachableFrom(doc, part, childPointer(at.pointer, keyword, String(i)), out);
  return out;
}

/** The schemas under a holder of `content` (a response or a request body) at `pointer`. */
function contentSchemas(doc: OpenApiDocument, holder: unknown, pointer: string, out: Set<string>): void {
  const at = declaredAt(doc, holder, pointer);
  for (const [media, entry] of Object.entries((at.node?.content ?? {}) as JsonObject))
    if (isJsonObject(entry) && entry.schema !== undefined)
      reachableFrom(doc, entry.schema, childPointer(at.pointer, 'content', media, 'schema'), out);
}

/** Every pointer under the responses of the operation at `operationPointer` (`/paths/.../post`). */
export function responsePointers(bundle: FamilyBundle, operationPointer: string): Set<string> {
  const out = new Set<string>();
  const operation = nodeAt(bundle.doc, operationPointer) as JsonObject | undefined;
  for (const [status, response] of Object.entries((operation?.responses ?? {}) as JsonObject))
    contentSchemas(bundle.doc, response, childPointer(operationPointer, 'responses', status), out);
  return out;
}

/** Where the schemas of an operation's error answers (every status but 2xx) are declared. */
export function errorSchemaPointers(bundle: FamilyBundle, operationPointer: string): string[] {
  const out = new Set<string>();
  const operation = nodeAt(bundle.doc, operationPointer) as JsonObject | undefined;
  for (const [status, response] of Object.entries((operation?.responses ?? {}) as JsonObject)) {
    if (status.startsWith('2')) continue;
    const at = declaredAt(bundle.doc, response, childPointer(operationPointer, 'responses', status));
    for (const [media, entry] of Object.entries((at.node?.content ?? {}) as JsonObject))
      if (isJsonObject(entry) && entry.schema !== undefined)
        out.add(declaredAt(bundle.doc, entry.schema, childPointer(at.pointer, 'content', media, 'schema')).pointer);
  }
  return [...out];
}

/** Every pointer under an event's payload. */
export function payloadPointers(bundle: FamilyBundle, event: string): Set<string> {
  const out = new Set<string>();
  const item = ((bundle.doc.webhooks ?? {}) as JsonObject)[event] as JsonObject | undefined;
  for (const method of HTTP_METHODS)
    if (item?.[method]?.requestBody)
      contentSchemas(
        bundle.doc,
        item[method].requestBody,
        childPointer('', 'webhooks', event, method, 'requestBody'),
        out,
      );
  return out;
}

/** Whether a field read at `pointer` lies in `reachable` (a field an open object does not declare: its object does). */
export function holds(reachable: Set<string>, pointer: string): boolean {
  if (reachable.has(pointer)) return true;
  const match = /^(.*)\/properties\/[^/]+$/.exec(pointer);
  return Boolean(match && reachable.has(match[1]!));
}
