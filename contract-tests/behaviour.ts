// The behaviour a success response's schema states, read from the description instead of restated in the
// tests: a field with a single allowed value (a created wallet is `accepted`, a new payout is `PENDING`, a
// deleted webhook has `status` false), and a list with a maximum length (at most 10 transfers).
import type { OpenApiDocument } from '../scripts/openapi/apis.js';
import { effectiveSchema, type JsonObject } from '../src/client/lookup/index.js';

export interface StatedBehaviour {
  /** Field path in the body, e.g. `data.status`; empty for the body itself. */
  path: string[];
  /** In words, e.g. `data.status is always "pending"`. */
  what: string;
  holds: (value: unknown) => boolean;
}

const singleValue = (schema: JsonObject): { value: unknown } | undefined =>
  'const' in schema
    ? { value: schema.const }
    : Array.isArray(schema.enum) && schema.enum.length === 1
      ? { value: schema.enum[0] }
      : undefined;

/** Every fixed value and list limit the schema states, walking nested object properties. */
export function statedBehaviour(
  doc: OpenApiDocument,
  node: unknown,
  path: string[] = [],
  depth = 0,
): StatedBehaviour[] {
  if (node === undefined || depth > 10) return [];
  const schema = effectiveSchema(doc, node);
  const name = path.join('.') || 'the body';
  const out: StatedBehaviour[] = [];
  const fixed = singleValue(schema);
  if (fixed)
    out.push({ path, what: `${name} is always ${JSON.stringify(fixed.value)}`, holds: (v) => v === fixed.value });
  if (typeof schema.maxItems === 'number') {
    const max = schema.maxItems;
    out.push({ path, what: `${name} has at most ${max} items`, holds: (v) => Array.isArray(v) && v.length <= max });
  }
  for (const [key, child] of Object.entries((schema.properties ?? {}) as JsonObject))
    out.push(...statedBehaviour(doc, child, [...path, key], depth + 1));
  return out;
}

/** The stated behaviours a body breaks, in words; a field the body lacks is left to schema validation. */
export function behaviourProblems(behaviours: StatedBehaviour[], body: unknown): string[] {
  return behaviours.flatMap((b) => {
    let at: unknown = body;
    for (const key of b.path) at = at && typeof at === 'object' ? (at as JsonObject)[key] : undefined;
    if (at === undefined) return [];
    return b.holds(at) ? [] : [`${b.what}, but it is ${JSON.stringify(at)}`];
  });
}
