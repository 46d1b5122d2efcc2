// JSON pointers into a bundle, as the usage files and the compatibility rules name a schema: the pointer of the
// place where a schema or a field is declared, following `$ref`s to their targets and searching `allOf`,
// `oneOf` and `anyOf` parts for a field, so that a field read in a consumer's code and a change found between
// two bundles land on the same pointer.
import {
  escapePointerToken,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  pointerParts,
} from '../lookup/index.js';

/** `pointer` with `parts` appended, each escaped. */
export const childPointer = (pointer: string, ...parts: string[]) =>
  [pointer, ...parts.map(escapePointerToken)].join('/');

/** The node at a pointer (`/a/b`), or undefined. */
export const nodeAt = (doc: OpenApiDocument, pointer: string): unknown =>
  pointer === '' ? doc : pointerParts(pointer).reduce<any>((at, key) => at?.[key], doc);

export interface Located {
  node: JsonObject;
  pointer: string;
}

/** Where the schema at `pointer` is declared: the end of its `$ref` chain. */
export function declaredAt(doc: OpenApiDocument, node: unknown, pointer: string): Located {
  let at = { node: node as JsonObject, pointer };
  for (let hops = 0; isJsonObject(at.node) && typeof at.node.$ref === 'string' && hops < 20; hops++) {
    const target = at.node.$ref.replace(/^#/, '');
    at = { node: nodeAt(doc, target) as JsonObject, pointer: target };
  }
  return at;
}

/** Where the field `name` of the schema at `pointer` is declared, its `allOf`, `oneOf` and `anyOf` parts searched. */
function propertyAt(
  doc: OpenApiDocument,
  node: unknown,
  pointer: string,
  name: string,
  depth = 0,
): Located | undefined {
  const at = declaredAt(doc, node, pointer);
  if (!isJsonObject(at.node) || depth > 20) return undefined;
  const own = (at.node.properties as JsonObject | undefined)?.[name];
  if (own !== undefined) return { node: own, pointer: childPointer(at.pointer, 'properties', name) };
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const parts = at.node[keyword];
    if (!Array.isArray(parts)) continue;
    for (const [i, part] of parts.entries()) {
      const found = propertyAt(doc, part, childPointer(at.pointer, keyword, String(i)), name, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The field `name` of the schema at `pointer`: where it is declared, or, on an open object that does not declare
 * it, the pointer it would have if declared (`.../properties/<name>`).
 */
export function fieldAt(doc: OpenApiDocument, node: unknown, pointer: string, name: string): Located {
  const found = propertyAt(doc, node, pointer, name);
  if (found) return found;
  const at = declaredAt(doc, node, pointer);
  return { node: {}, pointer: childPointer(at.pointer, 'properties', name) };
}

/** The items of the array schema at `pointer`. */
export function itemsAt(doc: OpenApiDocument, node: unknown, pointer: string): Located {
  const at = declaredAt(doc, node, pointer);
  return { node: (at.node?.items ?? {}) as JsonObject, pointer: childPointer(at.pointer, 'items') };
}

/** Whether `pointer` is `ancestor` or lies under it. */
export const isWithin = (pointer: string, ancestor: string) =>
  pointer === ancestor || pointer.startsWith(`${ancestor}/`);
