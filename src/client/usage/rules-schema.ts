// Breaking-change rules between two schemas of the same API family, one direction at a time: a request that
// the old description allowed and the new one refuses breaks a consuming team, and so does a response the old
// description ruled out and the new one allows. Each change carries the pointers of the schema it is at (in the
// old bundle, or the new one for something added) so that it can be matched with what a consumer reads.
import { effectiveSchema, type JsonObject, type OpenApiDocument } from '../lookup/index.js';
import { childPointer, declaredAt, fieldAt, itemsAt } from './pointers.js';

/** Where in a schema a change is: the pointer of its node, and every pointer on the way down to it. */
export interface SchemaSpot {
  pointer: string;
  trail: string[];
  /** The change is to a field a request must now carry: it breaks the calls that do not send it. */
  absent?: true;
}

/** `request`: what a client may send (tightening breaks). `response`: what a client may receive (loosening breaks). */
export type Direction = 'request' | 'response';
export type Report = (breaking: boolean, what: string, notice?: boolean, spot?: SchemaSpot) => void;

const typesOf = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];
const enumOf = (schema: JsonObject): unknown[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
const show = (value: unknown) => JSON.stringify(value);
export const same = (a: unknown, b: unknown) => show(a) === show(b);

/**
 * Constraint keywords and how a change moves them: `tighter` when the new value admits fewer instances,
 * `looser` when it admits more (both for a change that is neither, such as a different `pattern`).
 */
const BOUNDS: [keyword: string, kind: 'max' | 'min' | 'multipleOf' | 'pattern' | 'flag'][] = [
  ['maxLength', 'max'],
  ['maxItems', 'max'],
  ['maxProperties', 'max'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'max'],
  ['minLength', 'min'],
  ['minItems', 'min'],
  ['minProperties', 'min'],
  ['minimum', 'min'],
  ['exclusiveMinimum', 'min'],
  ['multipleOf', 'multipleOf'],
  ['pattern', 'pattern'],
  ['uniqueItems', 'flag'],
];

function boundChange(kind: (typeof BOUNDS)[number][1], o: any, n: any): { tighter: boolean; looser: boolean } {
  const num = (v: unknown, absent: number) => (typeof v === 'number' ? v : absent);
  switch (kind) {
    case 'max':
      return { tighter: num(n, Infinity) < num(o, Infinity), looser: num(n, Infinity) > num(o, Infinity) };
    case 'min':
      return { tighter: num(n, -Infinity) > num(o, -Infinity), looser: num(n, -Infinity) < num(o, -Infinity) };
    case 'multipleOf':
      // Tighter unless every old multiple is still one (old step a multiple of the new); looser unless every new multiple was one.
      return {
        tighter: n !== undefined && (o === undefined || o % n !== 0),
        looser: o !== undefined && (n === undefined || n % o !== 0),
      };
    case 'pattern':
      return { tighter: n !== undefined, looser: o !== undefined };
    case 'flag':
      return { tighter: n === true && o !== true, looser: o === true && n !== true };
  }
}

/** Which way a change of what is allowed breaks: tightening a request or loosening a response. */
const breaksIn = (direction: Direction, change: { tighter: boolean; looser: boolean }) =>
  direction === 'request' ? change.tighter : change.looser;

/** The pointers of a node being compared, in the old and the new bundle, and the old pointers above it. */
export interface Spots {
  old: string;
  new: string;
  trail: string[];
}

/**
 * Compares two schemas in one direction, adding a change per difference, with `at` as the field path and
 * `spots` the node's pointers (each change is reported at the old node's pointer, or the new one's when added).
 */
export function compareSchemas(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  oldNode: unknown,
  newNode: unknown,
  direction: Direction,
  at: string,
  report: Report,
  spots: Spots,
  depth = 0,
): void {
  if (depth > 20 || oldNode === undefined || newNode === undefined) return;
  const a = effectiveSchema(oldDoc, oldNode);
  const b = effectiveSchema(newDoc, newNode);
  const field = at || '(body)';
  const declared = declaredAt(oldDoc, oldNode, spots.old).pointer;
  const trail = [...spots.trail, spots.old, declared];
  const here: Report = (breaking, what, notice) => report(breaking, what, notice, { pointer: spots.old, trail });

  compareTypes(a, b, direction, field, here);
  compareKeywords(a, b, direction, field, here);
  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const child = (name: string) => (at ? `${at}.${name}` : name);
  const oldField = (name: string) => fieldAt(oldDoc, oldNode, spots.old, name).pointer;
  const newField = (name: string) => fieldAt(newDoc, newNode, spots.new, name).pointer;
  compareFields(a, b, direction, child, (breaking, what, notice, spot) => {
    const name = spot!.pointer;
    const pointer = name in oldProps ? oldField(name) : newField(name);
    report(breaking, what, notice, { ...spot, pointer, trail: [...trail, pointer] });
  });
  for (const name of Object.keys(oldProps)) {
    if (name in newProps) {
      const next = { old: oldField(name), new: newField(name), trail };
      compareSchemas(oldDoc, newDoc, oldProps[name], newProps[name], direction, child(name), report, next, depth + 1);
    }
  }
  if (a.items && b.items) {
    const next = {
      old: itemsAt(oldDoc, oldNode, spots.old).pointer,
      new: itemsAt(newDoc, newNode, spots.new).pointer,
      trail,
    };
    compareSchemas(oldDoc, newDoc, a.items, b.items, direction, `${at}[]`, report, next, depth + 1);
  }
  compareAlternatives(oldDoc, newDoc, a, b, direction, at, report, { ...spots, old: declared, trail }, depth);
}

/** The `oneOf` and `anyOf` alternatives, compared by position. */
function compareAlternatives(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  a: JsonObject,
  b: JsonObject,
  direction: Direction,
  at: string,
  report: Report,
  spots: Spots,
  depth: number,
): void {
  const field = at || '(body)';
  const newDeclared = declaredAt(newDoc, b, spots.new).pointer;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const oldParts = (a[keyword] ?? []) as unknown[];
    const newParts = (b[keyword] ?? []) as unknown[];
    for (const [i, part] of oldParts.entries()) {
      if (newParts[i] === undefined) continue;
      const next = {
        old: childPointer(spots.old, keyword, String(i)),
        new: childPointer(newDeclared, keyword, String(i)),
        trail: spots.trail,
      };
      compareSchemas(oldDoc, newDoc, part, newParts[i], direction, `${at}<${keyword}[${i}]>`, report, next, depth + 1);
    }
    const spot = { pointer: spots.old, trail: spots.trail };
    if (newParts.length > oldParts.length)
      report(direction === 'response', `${field}: ${keyword} alternative(s) added`, undefined, spot);
    if (newParts.length < oldParts.length)
      report(direction === 'request', `${field}: ${keyword} alternative(s) removed`, undefined, spot);
  }
}

/** The types a schema allows, in one direction. */
function compareTypes(a: JsonObject, b: JsonObject, direction: Direction, field: string, report: Report): void {
  const oldTypes = typesOf(a);
  const newTypes = typesOf(b);
  if (oldTypes.length && newTypes.length) {
    const removed = oldTypes.filter((t) => !newTypes.includes(t) && !(t === 'integer' && newTypes.includes('number')));
    const added = newTypes.filter(
      (t) => !oldTypes.includes(t) && !(t === 'number' && oldTypes.includes('integer') && direction === 'request'),
    );
    const nullability = (types: string[]) => (types.includes('null') ? ' (nullable)' : '');
    if (direction === 'request' && removed.length)
      report(true, `${field}: type narrowed from ${oldTypes.join('|')} to ${newTypes.join('|')}`);
    if (direction === 'response' && added.length)
      report(
        true,
        `${field}: type widened from ${oldTypes.join('|')} to ${newTypes.join('|')}${nullability(added)}; clients do not expect ${added.join('|')}`,
      );
    if (direction === 'response' && removed.length && !added.length)
      report(false, `${field}: type narrowed to ${newTypes.join('|')}`);
    if (direction === 'request' && added.length && !removed.length)
      report(false, `${field}: now also accepts ${added.join('|')}`);
  } else if (!oldTypes.length && newTypes.length && direction === 'request') {
    report(true, `${field}: type narrowed from any to ${newTypes.join('|')}`);
  } else if (oldTypes.length && !newTypes.length) {
    report(direction === 'response', `${field}: type no longer stated (was ${oldTypes.join('|')})`);
  }
}

/** Format, enum, bounds, default, closed objects and conditional requirements, in one direction. */
function compareKeywords(a: JsonObject, b: JsonObject, direction: Direction, field: string, report: Report): void {
  if (a.format !== b.format) {
    const change = { tighter: b.format !== undefined, looser: a.format !== undefined };
    const what =
      a.format === undefined
        ? `format added: ${b.format}`
        : b.format === undefined
          ? `format dropped (was ${a.format})`
          : `format changed from ${a.format} to ${b.format}`;
    report(breaksIn(direction, change), `${field}: ${what}`);
  }
  const oldEnum = enumOf(a);
  const newEnum = enumOf(b);
  if (newEnum && !oldEnum) report(direction === 'request', `${field}: now a closed enum (${newEnum.join(', ')})`);
  if (oldEnum && !newEnum)
    report(
      direction === 'response',
      `${field}: enum (${oldEnum.join(', ')}) removed; any value may now ${direction === 'response' ? 'arrive' : 'be sent'}`,
    );
  if (oldEnum && newEnum) {
    const removed = oldEnum.filter((v) => !newEnum.includes(v));
    const added = newEnum.filter((v) => !oldEnum.includes(v));
    if (removed.length) report(direction === 'request', `${field}: enum value(s) ${removed.join(', ')} removed`);
    if (added.length)
      report(
        direction === 'response',
        `${field}: enum value(s) ${added.join(', ')} added${direction === 'response' ? ' to a closed enum in a response' : ''}`,
      );
  }
  for (const [keyword, kind] of BOUNDS) {
    const o = a[keyword];
    const n = b[keyword];
    if (same(o, n)) continue;
    const change = boundChange(kind, o, n);
    const verb =
      n === undefined
        ? `removed (was ${show(o)})`
        : o === undefined
          ? `added: ${show(n)}`
          : change.tighter && !change.looser
            ? `tightened to ${show(n)}`
            : change.looser && !change.tighter
              ? `loosened to ${show(n)}`
              : `changed from ${show(o)} to ${show(n)}`;
    report(breaksIn(direction, change), `${field}: ${keyword} ${verb}`);
  }
  if (!same(a.default, b.default)) {
    report(
      false,
      `${field}: default ${a.default === undefined ? `added: ${show(b.default)}` : b.default === undefined ? `removed (was ${show(a.default)})` : `changed from ${show(a.default)} to ${show(b.default)}`}`,
      true,
    );
  }
  const closed = (s: JsonObject) => s.additionalProperties === false;
  if (closed(a) !== closed(b)) {
    if (closed(b))
      report(direction === 'request', `${field}: additionalProperties: false added; undeclared fields are now refused`);
    else report(false, `${field}: additionalProperties: false removed`);
  }
  if (!same(a.if, b.if) || !same(a.then, b.then) || !same(a.else, b.else)) {
    const describe = (s: JsonObject) =>
      s.if ? `if ${show(s.if)} then ${show(s.then ?? {})}${s.else ? ` else ${show(s.else)}` : ''}` : 'none';
    const change = { tighter: Boolean(b.if), looser: Boolean(a.if) };
    report(
      breaksIn(direction, change),
      `${field}: conditional requirement (if/then) ${a.if ? (b.if ? 'changed' : 'removed') : 'added'}: ${describe(b.if ? b : a)}`,
    );
  }
}

/** Fields removed, added, newly required or no longer always present, in one direction. */
function compareFields(
  a: JsonObject,
  b: JsonObject,
  direction: Direction,
  child: (name: string) => string,
  report: Report,
): void {
  // The field's name, for the caller to turn into its pointer.
  const named = (name: string, absent?: boolean): SchemaSpot => ({
    pointer: name,
    trail: [],
    ...(absent ? { absent: true } : {}),
  });
  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const oldRequired = new Set<string>(a.required ?? []);
  const newRequired = new Set<string>(b.required ?? []);
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) report(direction === 'response', `${child(name)}: field removed`, undefined, named(name));
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps)) {
      const required = newRequired.has(name);
      report(
        direction === 'request' && required,
        `${child(name)}: ${required ? 'required' : 'optional'} field added`,
        undefined,
        named(name, required),
      );
    }
  }
  for (const name of newRequired) {
    if (name in oldProps && !oldRequired.has(name) && direction === 'request')
      report(true, `${child(name)}: now required`, undefined, named(name, true));
  }
  for (const name of oldRequired) {
    if (name in newProps && !newRequired.has(name) && direction === 'response')
      report(true, `${child(name)}: no longer always present`, undefined, named(name));
  }
}
