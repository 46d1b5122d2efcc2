// The walk over two schemas of the same API family, one direction at a time: at each pair of nodes (properties,
// items and alternatives followed, `allOf` merged) it applies the schema rules of that direction (rules/). Each
// change carries the pointers of the schema it is at (in the old bundle, or the new one for something added) so
// that it can be matched with what a consumer reads.
import { effectiveSchema, type JsonObject, type OpenApiDocument } from '../lookup/index.js';
import type { SchemaSpot } from './change.js';
import { childPointer, declaredAt, fieldAt, itemsAt } from './pointers.js';
import { rulesFor } from './rules/index.js';
import type { CompatRule } from './rules/rule.js';

/** `request`: what a client may send (tightening breaks). `response`: what a client may receive (loosening breaks). */
export type Direction = 'request' | 'response';
/** A change a rule found, with the schema node it is at. */
type Found = (rule: CompatRule, what: string, spot?: SchemaSpot) => void;

/** The pointers of a node being compared, in the old and the new bundle, and the old pointers above it. */
interface Spots {
  old: string;
  new: string;
  trail: string[];
}

/** The two documents, the direction and where each change goes, fixed for one walk. */
export interface SchemaWalk {
  oldDoc: OpenApiDocument;
  newDoc: OpenApiDocument;
  direction: Direction;
  found: Found;
}

/**
 * Compares two schemas, adding a change per difference, with `at` as the field path and `spots` the node's
 * pointers (each change is reported at the old node's pointer, or at the field's when it is about one field).
 */
export function compareSchemas(
  walk: SchemaWalk,
  nodes: { old: unknown; new: unknown },
  at: string,
  spots: Spots,
  depth = 0,
): void {
  if (depth > 20 || nodes.old === undefined || nodes.new === undefined) return;
  const { oldDoc, newDoc, direction, found } = walk;
  const a = effectiveSchema(oldDoc, nodes.old);
  const b = effectiveSchema(newDoc, nodes.new);
  const declared = declaredAt(oldDoc, nodes.old, spots.old).pointer;
  const trail = [...spots.trail, spots.old, declared];
  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const child = (name: string) => (at ? `${at}.${name}` : name);
  const oldField = (name: string) => fieldAt(oldDoc, nodes.old, spots.old, name).pointer;
  const newField = (name: string) => fieldAt(newDoc, nodes.new, spots.new, name).pointer;
  const pair = { old: a, new: b, field: at || '(body)', child };
  for (const rule of rulesFor('schema', direction))
    rule.check(pair, (what, field) => {
      if (!field) return found(rule, what, { pointer: spots.old, trail });
      const pointer = field.name in oldProps ? oldField(field.name) : newField(field.name);
      found(rule, what, { pointer, trail: [...trail, pointer], ...(field.absent ? { absent: true } : {}) });
    });
  for (const name of Object.keys(oldProps)) {
    if (name in newProps) {
      const next = { old: oldField(name), new: newField(name), trail };
      compareSchemas(walk, { old: oldProps[name], new: newProps[name] }, child(name), next, depth + 1);
    }
  }
  if (a.items && b.items) {
    const next = {
      old: itemsAt(oldDoc, nodes.old, spots.old).pointer,
      new: itemsAt(newDoc, nodes.new, spots.new).pointer,
      trail,
    };
    compareSchemas(walk, { old: a.items, new: b.items }, `${at}[]`, next, depth + 1);
  }
  compareAlternatives(walk, { old: a, new: b }, at, { ...spots, old: declared, trail }, depth);
}

/** The `oneOf` and `anyOf` alternatives, compared by position, then the alternatives rules. */
function compareAlternatives(
  walk: SchemaWalk,
  schemas: { old: JsonObject; new: JsonObject },
  at: string,
  spots: Spots,
  depth: number,
): void {
  const newDeclared = declaredAt(walk.newDoc, schemas.new, spots.new).pointer;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const oldParts = (schemas.old[keyword] ?? []) as unknown[];
    const newParts = (schemas.new[keyword] ?? []) as unknown[];
    for (const [i, part] of oldParts.entries()) {
      if (newParts[i] === undefined) continue;
      const next = {
        old: childPointer(spots.old, keyword, String(i)),
        new: childPointer(newDeclared, keyword, String(i)),
        trail: spots.trail,
      };
      compareSchemas(walk, { old: part, new: newParts[i] }, `${at}<${keyword}[${i}]>`, next, depth + 1);
    }
    const pair = { keyword, old: oldParts, new: newParts, field: at || '(body)' };
    for (const rule of rulesFor('alternatives', walk.direction))
      rule.check(pair, (what) => walk.found(rule, what, { pointer: spots.old, trail: spots.trail }));
  }
}
