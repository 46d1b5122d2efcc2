// Breaking-change rules between two bundles of the same API family. A request that the old description
// allowed and the new one refuses breaks a consuming team, and so does a response the old description
// ruled out and the new one allows; each such change is breaking. Additive changes are listed, and
// changed defaults are listed as notices (the wire is unchanged, the behaviour is not).

import {
  effectiveSchema,
  type JsonObject,
  listOperations,
  type OperationEntry,
  resolveRef,
} from '../../src/sandbox/contract/lookup.js';
import type { OpenApiDocument } from '../openapi/apis.js';

export interface Change {
  breaking: boolean;
  /** `GET /api/accounts/{clientId} (listBankAccounts)`, or `event user.created`. */
  where: string;
  what: string;
  /** A behaviour change that is not breaking on the wire but must be seen (a changed `default`). */
  notice?: boolean;
}

/** `request`: what a client may send (tightening breaks). `response`: what a client may receive (loosening breaks). */
type Direction = 'request' | 'response';
type Report = (breaking: boolean, what: string, notice?: boolean) => void;

const typesOf = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];
const enumOf = (schema: JsonObject): unknown[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
const show = (value: unknown) => JSON.stringify(value);
const same = (a: unknown, b: unknown) => show(a) === show(b);

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

/** Compares two schemas in one direction, adding a change per difference, with `at` as the field path. */
function compareSchemas(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  oldNode: unknown,
  newNode: unknown,
  direction: Direction,
  at: string,
  report: Report,
  depth = 0,
): void {
  if (depth > 20 || oldNode === undefined || newNode === undefined) return;
  const a = effectiveSchema(oldDoc, oldNode);
  const b = effectiveSchema(newDoc, newNode);
  const field = at || '(body)';

  compareTypes(a, b, direction, field, report);
  compareKeywords(a, b, direction, field, report);
  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const child = (name: string) => (at ? `${at}.${name}` : name);
  compareFields(a, b, direction, child, report);
  for (const name of Object.keys(oldProps)) {
    if (name in newProps)
      compareSchemas(oldDoc, newDoc, oldProps[name], newProps[name], direction, child(name), report, depth + 1);
  }
  if (a.items && b.items) compareSchemas(oldDoc, newDoc, a.items, b.items, direction, `${at}[]`, report, depth + 1);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const oldParts = (a[keyword] ?? []) as unknown[];
    const newParts = (b[keyword] ?? []) as unknown[];
    for (const [i, part] of oldParts.entries()) {
      if (newParts[i] !== undefined)
        compareSchemas(oldDoc, newDoc, part, newParts[i], direction, `${at}<${keyword}[${i}]>`, report, depth + 1);
    }
    if (newParts.length > oldParts.length)
      report(direction === 'response', `${field}: ${keyword} alternative(s) added`);
    if (newParts.length < oldParts.length)
      report(direction === 'request', `${field}: ${keyword} alternative(s) removed`);
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
  const oldProps = (a.properties ?? {}) as JsonObject;
  const newProps = (b.properties ?? {}) as JsonObject;
  const oldRequired = new Set<string>(a.required ?? []);
  const newRequired = new Set<string>(b.required ?? []);
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
    if (name in oldProps && !oldRequired.has(name) && direction === 'request')
      report(true, `${child(name)}: now required`);
  }
  for (const name of oldRequired) {
    if (name in newProps && !newRequired.has(name) && direction === 'response')
      report(true, `${child(name)}: no longer always present`);
  }
}

const label = (e: OperationEntry) => `${e.method.toUpperCase()} ${e.path} (${e.operationId})`;
const contentOf = (doc: OpenApiDocument, holder: unknown) =>
  ((resolveRef(doc, holder) as JsonObject | undefined)?.content ?? {}) as JsonObject;
const isSuccess = (status: string) => /^2/.test(status);
/** The security schemes an operation needs (its own list, else the document's); empty when public. */
const securityOf = (doc: OpenApiDocument, op: JsonObject): string[] =>
  ((op.security ?? (doc as JsonObject).security ?? []) as JsonObject[])
    .map((req) => Object.keys(req).sort().join('+') || '(none)')
    .sort();

/** Compares the media types of a request body or response, then the schema under each one both keep. */
function compareContent(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  oldHolder: unknown,
  newHolder: unknown,
  direction: Direction,
  prefix: string,
  add: Report,
) {
  const oldContent = contentOf(oldDoc, oldHolder);
  const newContent = contentOf(newDoc, newHolder);
  const oldTypes = Object.keys(oldContent);
  const newTypes = Object.keys(newContent);
  for (const type of oldTypes) {
    if (!(type in newContent))
      add(
        true,
        `${prefix}: media type ${type} ${direction === 'request' ? 'no longer accepted' : 'no longer sent'}${newTypes.length ? ` (now ${newTypes.join(', ')})` : ''}`,
      );
  }
  for (const type of newTypes)
    if (!(type in oldContent))
      add(direction === 'response' && oldTypes.length > 0, `${prefix}: media type ${type} added`);
  for (const type of oldTypes) {
    if (type in newContent)
      compareSchemas(
        oldDoc,
        newDoc,
        oldContent[type].schema,
        newContent[type].schema,
        direction,
        '',
        (br, what, notice) => add(br, `${prefix}: ${what.replace(/^\(body\): /, '')}`, notice),
      );
  }
}

function compareOperation(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  a: OperationEntry,
  b: OperationEntry,
  where: string,
  out: Change[],
  renamed: Map<string, string> = new Map(),
) {
  const add: Report = (breaking, what, notice) => out.push({ breaking, where, what, ...(notice ? { notice } : {}) });
  if (a.operationId !== b.operationId) add(true, `operationId changed from ${a.operationId} to ${b.operationId}`);

  const oldSecurity = securityOf(oldDoc, a.operation);
  const newSecurity = securityOf(newDoc, b.operation);
  if (!same(oldSecurity, newSecurity)) {
    const wasPublic = oldSecurity.length === 0 || oldSecurity.includes('(none)');
    const isPublic = newSecurity.length === 0 || newSecurity.includes('(none)');
    if (wasPublic && !isPublic) add(true, `security added: now requires ${newSecurity.join(' or ')}`);
    else if (!wasPublic && isPublic) add(false, 'security removed: now public');
    else add(true, `security changed from ${oldSecurity.join(' or ')} to ${newSecurity.join(' or ')}`);
  }

  const key = (p: JsonObject) => `${p.in} ${p.in === 'path' ? (renamed.get(p.name) ?? p.name) : p.name}`;
  const oldParams = new Map(a.parameters.map((p) => [key(p), p]));
  const newParams = new Map(b.parameters.map((p) => [`${p.in} ${p.name}`, p]));
  for (const [k, p] of oldParams) {
    const q = newParams.get(k);
    if (!q) add(true, `parameter ${k} removed`);
    else {
      if (q.required && !p.required) add(true, `parameter ${k} is now required`);
      compareSchemas(oldDoc, newDoc, p.schema, q.schema, 'request', '', (br, what, notice) =>
        add(br, `parameter ${k}${what.replace(/^\(body\)/, '')}`, notice),
      );
    }
  }
  for (const [k, q] of newParams)
    if (!oldParams.has(k)) add(Boolean(q.required), `${q.required ? 'required' : 'optional'} parameter ${k} added`);

  const oldBody = a.operation.requestBody ? resolveRef<JsonObject>(oldDoc, a.operation.requestBody) : undefined;
  const newBody = b.operation.requestBody ? resolveRef<JsonObject>(newDoc, b.operation.requestBody) : undefined;
  if (newBody?.required && !oldBody?.required)
    add(true, oldBody ? 'request body is now required' : 'required request body added');
  if (oldBody && !newBody) add(true, 'request body removed');
  if (oldBody && newBody) compareContent(oldDoc, newDoc, oldBody, newBody, 'request', 'request body', add);

  const oldResponses = (a.operation.responses ?? {}) as JsonObject;
  const newResponses = (b.operation.responses ?? {}) as JsonObject;
  const newSuccess = Object.keys(newResponses).filter(isSuccess);
  for (const [status, response] of Object.entries(oldResponses)) {
    const next = newResponses[status];
    if (!next) {
      if (isSuccess(status))
        add(
          true,
          `success response ${status} ${newSuccess.length ? `changed to ${newSuccess.join(', ')}` : 'removed'}; clients check for ${status}`,
        );
      else add(false, `response ${status} no longer documented`);
      continue;
    }
    compareContent(oldDoc, newDoc, response, next, 'response', `response ${status}`, add);
  }
  for (const status of Object.keys(newResponses)) if (!(status in oldResponses)) add(false, `response ${status} added`);
}

/** `/api/{a}/x/{b}` without its parameter names, so that a renamed path parameter keeps the route. */
const routeShape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
const pathNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Every change from `oldDoc` to `newDoc`, breaking ones first. */
export function compareDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): Change[] {
  const out: Change[] = [];
  const byRoute = (doc: OpenApiDocument) => new Map(listOperations(doc).map((e) => [`${e.method} ${e.path}`, e]));
  const oldOps = byRoute(oldDoc);
  const newOps = byRoute(newDoc);
  const newByShape = new Map([...newOps.values()].map((e) => [routeShape(e.method, e.path), e]));
  const matched = new Set<OperationEntry>();
  for (const [route, a] of oldOps) {
    const exact = newOps.get(route);
    // Same method and path shape, under a route the old description did not have: its path parameters were renamed.
    const reshaped = newByShape.get(routeShape(a.method, a.path));
    const b = exact ?? (reshaped && !oldOps.has(`${reshaped.method} ${reshaped.path}`) ? reshaped : undefined);
    if (!b) {
      out.push({ breaking: true, where: label(a), what: 'operation removed (or its path or method changed)' });
      continue;
    }
    matched.add(b);
    const renamed = new Map<string, string>();
    if (!exact) {
      const before = pathNames(a.path);
      const after = pathNames(b.path);
      for (const [i, name] of before.entries()) if (name !== after[i]) renamed.set(name, after[i]!);
      const list = [...renamed].map(([from, to]) => `{${from}} to {${to}}`).join(', ');
      out.push({
        breaking: true,
        where: label(b),
        what: `path parameter renamed: ${list} (was ${a.path}); typed clients pass path parameters by name`,
      });
    }
    compareOperation(oldDoc, newDoc, a, b, label(b), out, renamed);
  }
  for (const b of newOps.values())
    if (!matched.has(b)) out.push({ breaking: false, where: label(b), what: 'operation added' });

  // Events are sent by the service: a consumer receives their payloads as it receives responses.
  const oldEvents = (oldDoc.webhooks ?? {}) as JsonObject;
  const newEvents = (newDoc.webhooks ?? {}) as JsonObject;
  for (const name of Object.keys(oldEvents)) {
    if (!(name in newEvents)) {
      out.push({ breaking: true, where: `event ${name}`, what: 'event removed' });
      continue;
    }
    compareContent(
      oldDoc,
      newDoc,
      oldEvents[name].post?.requestBody,
      newEvents[name].post?.requestBody,
      'response',
      'payload',
      (breaking, what, notice) => out.push({ breaking, where: `event ${name}`, what, ...(notice ? { notice } : {}) }),
    );
  }
  for (const name of Object.keys(newEvents))
    if (!(name in oldEvents)) out.push({ breaking: false, where: `event ${name}`, what: 'event added' });
  return out.sort(
    (x, y) => Number(y.breaking) - Number(x.breaking) || Number(Boolean(y.notice)) - Number(Boolean(x.notice)),
  );
}

export function renderCompatReport(results: { api: string; changes: Change[] }[]): string {
  const lines: string[] = [];
  for (const { api, changes } of results) {
    const breaking = changes.filter((c) => c.breaking);
    const notices = changes.filter((c) => !c.breaking && c.notice);
    lines.push(
      `${api}: ${breaking.length} breaking, ${notices.length} behaviour notice(s), ${changes.length - breaking.length - notices.length} additive or neutral`,
    );
    for (const c of changes)
      lines.push(`  ${c.breaking ? 'BREAKING' : c.notice ? 'NOTICE  ' : 'ok      '}  ${c.where}: ${c.what}`);
  }
  return lines.join('\n');
}
