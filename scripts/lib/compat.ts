// Breaking-change rules between two bundles of the same API family: what would break a consuming team
// (removed operations, parameters and response fields, new requirements, narrowed types, enum changes,
// changed operationIds) fails; additive changes are listed.
import type { OpenApiDocument } from './apis.js';
import { listOperations, resolveRef, type JsonObject, type OperationEntry } from './openapi-lookup.js';

export interface Change {
  breaking: boolean;
  /** `GET /api/accounts/{clientId} (listBankAccounts)`, or `event user.created`. */
  where: string;
  what: string;
}

type Direction = 'request' | 'response';

const typesOf = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];
const enumOf = (schema: JsonObject): unknown[] | undefined => (Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined);

/** Compares two schemas in one direction, adding a change per difference, with `at` as the field path. */
function compareSchemas(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  oldNode: unknown,
  newNode: unknown,
  direction: Direction,
  at: string,
  report: (breaking: boolean, what: string) => void,
  depth = 0,
): void {
  if (depth > 20 || oldNode === undefined || newNode === undefined) return;
  const a = resolveRef(oldDoc, oldNode) as JsonObject;
  const b = resolveRef(newDoc, newNode) as JsonObject;
  const field = at || '(body)';

  const oldTypes = typesOf(a);
  const newTypes = typesOf(b);
  if (oldTypes.length && newTypes.length) {
    const removed = oldTypes.filter((t) => !newTypes.includes(t) && !(t === 'integer' && newTypes.includes('number')));
    const added = newTypes.filter((t) => !oldTypes.includes(t) && !(t === 'number' && oldTypes.includes('integer') && direction === 'request'));
    if (direction === 'request' && removed.length) report(true, `${field}: type narrowed from ${oldTypes.join('|')} to ${newTypes.join('|')}`);
    if (direction === 'response' && added.length) report(true, `${field}: type widened from ${oldTypes.join('|')} to ${newTypes.join('|')}; clients do not expect ${added.join('|')}`);
    if (direction === 'response' && removed.length && !added.length) report(false, `${field}: type narrowed to ${newTypes.join('|')}`);
    if (direction === 'request' && added.length && !removed.length) report(false, `${field}: now also accepts ${added.join('|')}`);
  } else if (!oldTypes.length && newTypes.length && direction === 'request') {
    report(true, `${field}: type narrowed from any to ${newTypes.join('|')}`);
  }
  if (a.format !== b.format) {
    if (direction === 'request' && b.format !== undefined) report(true, `${field}: format ${a.format === undefined ? 'added' : 'changed'}: ${b.format}`);
    else if (direction === 'response' && a.format !== undefined) report(true, `${field}: format ${b.format === undefined ? 'dropped' : 'changed'} (was ${a.format})`);
    else report(false, `${field}: format ${b.format === undefined ? `dropped (was ${a.format})` : `now ${b.format}`}`);
  }
  const oldEnum = enumOf(a);
  const newEnum = enumOf(b);
  if (newEnum && !oldEnum && direction === 'request') report(true, `${field}: now a closed enum (${newEnum.join(', ')})`);
  if (oldEnum && newEnum) {
    const removed = oldEnum.filter((v) => !newEnum.includes(v));
    const added = newEnum.filter((v) => !oldEnum.includes(v));
    if (removed.length) report(direction === 'request', `${field}: enum value(s) ${removed.join(', ')} removed`);
    if (added.length) report(direction === 'response', `${field}: enum value(s) ${added.join(', ')} added${direction === 'response' ? ' to a closed enum in a response' : ''}`);
  }
  for (const [keyword, tighter] of [
    ['maxLength', (o: number, n: number) => n < o],
    ['maxItems', (o: number, n: number) => n < o],
    ['minLength', (o: number, n: number) => n > o],
    ['minimum', (o: number, n: number) => n > o],
    ['exclusiveMinimum', (o: number, n: number) => n > o],
    ['maximum', (o: number, n: number) => n < o],
  ] as const) {
    const o = a[keyword];
    const n = b[keyword];
    if (direction === 'request' && typeof n === 'number' && (typeof o !== 'number' || tighter(o, n))) report(true, `${field}: ${keyword} tightened to ${n}`);
  }

  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const oldRequired = new Set<string>(a.required ?? []);
  const newRequired = new Set<string>(b.required ?? []);
  const child = (name: string) => (at ? `${at}.${name}` : name);
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) report(direction === 'response', `${child(name)}: field removed`);
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps)) {
      const required = newRequired.has(name);
      report(direction === 'request' && required, `${child(name)}: ${required ? 'required' : 'optional'} field added`);
    }
  }
  for (const name of newRequired) {
    if (name in oldProps && !oldRequired.has(name) && direction === 'request') report(true, `${child(name)}: now required`);
  }
  for (const name of oldRequired) {
    if (name in newProps && !newRequired.has(name) && direction === 'response') report(true, `${child(name)}: no longer always present`);
  }
  for (const name of Object.keys(oldProps)) {
    if (name in newProps) compareSchemas(oldDoc, newDoc, oldProps[name], newProps[name], direction, child(name), report, depth + 1);
  }
  if (a.items && b.items) compareSchemas(oldDoc, newDoc, a.items, b.items, direction, `${at}[]`, report, depth + 1);
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    const oldParts = (a[keyword] ?? []) as unknown[];
    const newParts = (b[keyword] ?? []) as unknown[];
    oldParts.forEach((part, i) => newParts[i] !== undefined && compareSchemas(oldDoc, newDoc, part, newParts[i], direction, `${at}<${keyword}[${i}]>`, report, depth + 1));
  }
}

const jsonSchemaOf = (doc: OpenApiDocument, holder: unknown) => (resolveRef(doc, holder) as JsonObject | undefined)?.content?.['application/json']?.schema;
const label = (e: OperationEntry) => `${e.method.toUpperCase()} ${e.path} (${e.operationId})`;

function compareOperation(oldDoc: OpenApiDocument, newDoc: OpenApiDocument, a: OperationEntry, b: OperationEntry, where: string, out: Change[]) {
  const add = (breaking: boolean, what: string) => out.push({ breaking, where, what });
  if (a.operationId !== b.operationId) add(true, `operationId changed from ${a.operationId} to ${b.operationId}`);
  const key = (p: JsonObject) => `${p.in} ${p.name}`;
  const oldParams = new Map(a.parameters.map((p) => [key(p), p]));
  const newParams = new Map(b.parameters.map((p) => [key(p), p]));
  for (const [k, p] of oldParams) {
    const q = newParams.get(k);
    if (!q) add(true, `parameter ${k} removed`);
    else {
      if (q.required && !p.required) add(true, `parameter ${k} is now required`);
      compareSchemas(oldDoc, newDoc, p.schema, q.schema, 'request', '', (br, what) => add(br, `parameter ${k}${what.replace(/^\(body\)/, '')}`));
    }
  }
  for (const [k, q] of newParams) if (!oldParams.has(k)) add(Boolean(q.required), `${q.required ? 'required' : 'optional'} parameter ${k} added`);
  const oldBody = jsonSchemaOf(oldDoc, a.operation.requestBody);
  const newBody = jsonSchemaOf(newDoc, b.operation.requestBody);
  if (!oldBody && newBody && resolveRef<JsonObject>(newDoc, b.operation.requestBody).required) add(true, 'request body is now required');
  if (oldBody && newBody) compareSchemas(oldDoc, newDoc, oldBody, newBody, 'request', '', (br, what) => add(br, `request body: ${what}`));
  for (const [status, response] of Object.entries((a.operation.responses ?? {}) as JsonObject)) {
    const next = b.operation.responses?.[status];
    if (!next) {
      add(false, `response ${status} no longer documented`);
      continue;
    }
    const oldSchema = jsonSchemaOf(oldDoc, response);
    const newSchema = jsonSchemaOf(newDoc, next);
    if (oldSchema && !newSchema) add(true, `response ${status}: JSON body removed`);
    if (oldSchema && newSchema) compareSchemas(oldDoc, newDoc, oldSchema, newSchema, 'response', '', (br, what) => add(br, `response ${status}: ${what}`));
  }
  for (const status of Object.keys(b.operation.responses ?? {})) if (!(status in (a.operation.responses ?? {}))) add(false, `response ${status} added`);
}

/** Every change from `oldDoc` to `newDoc`, breaking ones first. */
export function compareDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): Change[] {
  const out: Change[] = [];
  const byRoute = (doc: OpenApiDocument) => new Map(listOperations(doc).map((e) => [`${e.method} ${e.path}`, e]));
  const oldOps = byRoute(oldDoc);
  const newOps = byRoute(newDoc);
  for (const [route, a] of oldOps) {
    const b = newOps.get(route);
    if (!b) out.push({ breaking: true, where: label(a), what: 'operation removed (or its path or method changed)' });
    else compareOperation(oldDoc, newDoc, a, b, label(b), out);
  }
  for (const [route, b] of newOps) if (!oldOps.has(route)) out.push({ breaking: false, where: label(b), what: 'operation added' });
  const oldEvents = Object.keys(oldDoc.webhooks ?? {});
  const newEvents = Object.keys(newDoc.webhooks ?? {});
  for (const name of oldEvents) if (!newEvents.includes(name)) out.push({ breaking: true, where: `event ${name}`, what: 'event removed' });
  for (const name of newEvents) if (!oldEvents.includes(name)) out.push({ breaking: false, where: `event ${name}`, what: 'event added' });
  return out.sort((x, y) => Number(y.breaking) - Number(x.breaking));
}

export function renderCompatReport(results: { api: string; changes: Change[] }[]): string {
  const lines: string[] = [];
  for (const { api, changes } of results) {
    const breaking = changes.filter((c) => c.breaking);
    lines.push(`${api}: ${breaking.length} breaking, ${changes.length - breaking.length} additive or neutral`);
    for (const c of changes) lines.push(`  ${c.breaking ? 'BREAKING' : 'ok      '}  ${c.where}: ${c.what}`);
  }
  return lines.join('\n');
}
