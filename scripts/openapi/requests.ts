// Builds requests from the description itself: valid ones from its examples, and invalid ones by breaking
// one documented constraint at a time. Nothing here lists fields or operations by hand.

import { type JsonObject, type OperationEntry, resolveRef } from '../../src/client/lookup/index.js';
import { bodyExamples } from '../../src/sandbox/contract/lookup.js';
import type { OpenApiDocument } from './apis.js';

export { bodyExamples };

export interface RequestInit {
  params: { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, unknown> };
  body?: unknown;
}

export interface Violation {
  /** What was broken, e.g. `body.amount: 0 (exclusiveMinimum 0)`. */
  name: string;
  init: RequestInit;
}

const clone = <T>(value: T): T => structuredClone(value);

/**
 * A request that conforms to the description: required parameters from their examples (or `overrides`),
 * and the first body example. Optional query parameters are left out.
 */
export function validRequest(
  doc: OpenApiDocument,
  entry: OperationEntry,
  overrides: Record<string, unknown> = {},
  bodyExample?: unknown,
): RequestInit {
  const init: RequestInit = { params: { path: {}, query: {}, header: {} } };
  for (const parameter of entry.parameters) {
    if (!parameter.required) continue;
    const value = parameter.name in overrides ? overrides[parameter.name] : parameter.example;
    if (value === undefined)
      throw new Error(`${entry.operationId}: required parameter ${parameter.name} has no example`);
    (init.params[parameter.in as 'path' | 'query' | 'header'] as Record<string, unknown>)[parameter.name] = value;
  }
  const examples = bodyExamples(doc, entry);
  if (entry.operation.requestBody) {
    const body = clone(bodyExample ?? examples[0]?.[1] ?? {});
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const key of Object.keys(body)) if (key in overrides) (body as JsonObject)[key] = overrides[key];
    }
    init.body = body;
  }
  return init;
}

/** A value of the wrong JSON type for a schema, or undefined when the schema allows any type. */
function wrongType(schema: JsonObject): unknown {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return undefined;
  if (!types.includes('number') && !types.includes('integer')) return 12345;
  if (!types.includes('string')) return 'not-a-number';
  if (!types.includes('boolean')) return true;
  return undefined;
}

const BAD_FORMAT: Record<string, string> = {
  uuid: 'not-a-uuid',
  email: 'not-an-email',
  date: '2026-13-45',
  'date-time': 'yesterday at noon',
};

/** Values that break exactly one keyword of `schema` (type, format, enum, bounds, length). */
function breakingValues(schema: JsonObject): [string, unknown][] {
  const out: [string, unknown][] = [];
  const wrong = wrongType(schema);
  if (wrong !== undefined) out.push([`wrong type (${JSON.stringify(wrong)})`, wrong]);
  if (typeof schema.format === 'string' && BAD_FORMAT[schema.format])
    out.push([`malformed ${schema.format}`, BAD_FORMAT[schema.format]]);
  if (Array.isArray(schema.enum) || schema.const !== undefined) out.push(['outside the enum', 'NOT_AN_ALLOWED_VALUE']);
  if (typeof schema.exclusiveMinimum === 'number') {
    out.push([`${schema.exclusiveMinimum} (exclusiveMinimum ${schema.exclusiveMinimum})`, schema.exclusiveMinimum]);
    out.push([
      `${schema.exclusiveMinimum - 1} (below exclusiveMinimum ${schema.exclusiveMinimum})`,
      schema.exclusiveMinimum - 1,
    ]);
  }
  if (typeof schema.minimum === 'number')
    out.push([`${schema.minimum - 1} (below minimum ${schema.minimum})`, schema.minimum - 1]);
  if (typeof schema.maxLength === 'number')
    out.push([`${schema.maxLength + 1} characters (maxLength ${schema.maxLength})`, 'a'.repeat(schema.maxLength + 1)]);
  return out;
}

/** Walks a valid body value with its schema, yielding one broken copy per documented constraint. */
/** A copy of `base` whose body has the value at `path` replaced, or removed when `remove` is set. */
function editBody(base: RequestInit, path: readonly string[], replacement: unknown, remove = false): RequestInit {
  const init = clone(base);
  if (path.length === 0) {
    init.body = replacement;
    return init;
  }
  let parent = init.body as JsonObject;
  for (const key of path.slice(0, -1)) parent = parent[key];
  if (remove) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = replacement;
  return init;
}

/** Names a conditional requirement (`if`/`then`) makes required for this object value. */
export function triggeredRequirements(schema: JsonObject, value: JsonObject): string[] {
  const condition = schema.if as JsonObject | undefined;
  if (!condition?.properties) return [];
  const matches = Object.entries(condition.properties as JsonObject).every(
    ([k, s]) => value[k] !== undefined && (s.const === undefined || s.const === value[k]),
  );
  return matches ? ((schema.then as JsonObject | undefined)?.required ?? []) : [];
}

function bodyViolations(
  doc: OpenApiDocument,
  schemaNode: unknown,
  value: unknown,
  path: string[],
  out: Violation[],
  base: RequestInit,
) {
  const schema = resolveRef(doc, schemaNode) as JsonObject | undefined;
  if (!schema || typeof schema !== 'object') return;
  const at = path.length ? `body.${path.join('.')}` : 'body';
  for (const [what, bad] of breakingValues(schema))
    out.push({ name: `${at}: ${what}`, init: editBody(base, path, bad) });
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const record = value as JsonObject;
  // A conditional requirement (if/then) that this value triggers counts as required too.
  const required = new Set<string>([...(schema.required ?? []), ...triggeredRequirements(schema, record)]);
  for (const name of required) {
    if (name in record)
      out.push({ name: `${at}.${name}: missing (required)`, init: editBody(base, [...path, name], undefined, true) });
  }
  for (const [name, child] of Object.entries((schema.properties ?? {}) as JsonObject)) {
    if (name in record) bodyViolations(doc, child, record[name], [...path, name], out, base);
  }
}

/**
 * Every documented constraint of the operation's parameters and body, broken one at a time: starting from
 * `from` when given (a generated valid request), else from the description's examples.
 */
export function violations(
  doc: OpenApiDocument,
  entry: OperationEntry,
  overrides: Record<string, unknown> = {},
  from?: RequestInit,
): Violation[] {
  const out: Violation[] = [];
  const base = from ? clone(from) : validRequest(doc, entry, overrides);
  for (const parameter of entry.parameters) {
    const where = parameter.in as 'path' | 'query' | 'header';
    const label = `${where} ${parameter.name}`;
    if (parameter.required && where !== 'path') {
      const init = clone(base);
      delete init.params[where][parameter.name];
      out.push({ name: `${label}: missing (required)`, init });
    }
    const schema = resolveRef(doc, parameter.schema);
    for (const [what, bad] of breakingValues(schema)) {
      // Parameters travel as text: a number is a valid string parameter, so "wrong type" only exists for non-strings.
      if (what.startsWith('wrong type') && (schema.type === 'string' || where === 'path')) continue;
      const init = clone(base);
      init.params[where][parameter.name] = bad;
      out.push({ name: `${label}: ${what}`, init });
    }
  }
  const seen = new Set(out.map((v) => v.name));
  const bodies = from ? [['generated', from.body] as [string, unknown]] : bodyExamples(doc, entry);
  for (const [, example] of entry.operation.requestBody ? bodies : []) {
    const exampleBase = from ? clone(from) : validRequest(doc, entry, overrides, example);
    const found: Violation[] = [];
    const bodySchema = resolveRef(doc, entry.operation.requestBody).content?.['application/json']?.schema;
    bodyViolations(doc, bodySchema, exampleBase.body, [], found, exampleBase);
    for (const violation of found) {
      if (seen.has(violation.name)) continue;
      seen.add(violation.name);
      out.push(violation);
    }
  }
  return out;
}
