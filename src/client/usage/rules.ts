// Breaking-change rules between two bundles of the same API family: operations, parameters, bodies, responses
// and events (the schema rules are in rules-schema.ts). Additive changes are listed, and changed defaults are
// listed as notices (the wire is unchanged, the behaviour is not). Each change says where it is (operation or
// event, part, status, schema pointers), so that the gate and `ramp-api usage --check` can tell whom it breaks.
import {
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  resolveRef,
} from '../lookup/index.js';
import { childPointer, declaredAt } from './pointers.js';
import { compareSchemas, type Direction, type Report, type SchemaSpot, same } from './rules-schema.js';
import { visibleText } from './visible-text.js';

/** Where a change is, for matching it with what consumers use. */
export interface ChangeLocation {
  operation?: { operationId: string; method: string; path: string };
  event?: string;
  /** `operation`: the operation or event as a whole; otherwise the part of it the change is in. */
  part: 'operation' | 'parameter' | 'request' | 'response' | 'payload';
  /** The response's status, for a change in a response. */
  status?: string;
  /** `path user_id`, for a change of a parameter. */
  parameter?: string;
  /** The schema node the change is at; absent for a change of the whole part (a media type, the body required). */
  spot?: SchemaSpot;
}

export interface Change {
  breaking: boolean;
  /** `GET /api/accounts/{clientId} (listBankAccounts)`, or `event user.created`. */
  where: string;
  what: string;
  /** A behaviour change that is not breaking on the wire but must be seen (a changed `default`). */
  notice?: boolean;
  location?: ChangeLocation;
}

type Add = (
  breaking: boolean,
  what: string,
  notice?: boolean,
  at?: Omit<ChangeLocation, 'operation' | 'event'>,
) => void;

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
  holders: { old: unknown; new: unknown; oldPointer: string; newPointer: string },
  direction: Direction,
  prefix: string,
  add: Report,
) {
  const { old: oldHolder, new: newHolder } = holders;
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
        (br, what, notice, spot) => add(br, `${prefix}: ${what.replace(/^\(body\): /, '')}`, notice, spot),
        {
          old: childPointer(declaredAt(oldDoc, oldHolder, holders.oldPointer).pointer, 'content', type, 'schema'),
          new: childPointer(declaredAt(newDoc, newHolder, holders.newPointer).pointer, 'content', type, 'schema'),
          trail: [],
        },
      );
  }
}

/** The pointer of an operation (`/paths/~1api~1x/post`) in its bundle. */
const operationPointer = (e: OperationEntry) => childPointer('', 'paths', e.path, e.method);
const locationOf = (e: OperationEntry) => ({ operationId: e.operationId, method: e.method, path: e.path });

function compareOperation(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  pair: { a: OperationEntry; b: OperationEntry; renamed?: Map<string, string> },
  where: string,
  out: Change[],
) {
  const { a, b } = pair;
  const add: Add = (breaking, what, notice, at = { part: 'operation' }) =>
    out.push({ breaking, where, what, ...(notice ? { notice } : {}), location: { operation: locationOf(a), ...at } });
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
  compareParameters(oldDoc, newDoc, pair, add);
  compareBodies(oldDoc, newDoc, pair, add);
  compareResponses(oldDoc, newDoc, pair, add);
}

function compareParameters(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  { a, b, renamed = new Map() }: { a: OperationEntry; b: OperationEntry; renamed?: Map<string, string> },
  add: Add,
) {
  const key = (p: JsonObject) => `${p.in} ${p.in === 'path' ? (renamed.get(p.name) ?? p.name) : p.name}`;
  const oldParams = new Map(a.parameters.map((p) => [key(p), p]));
  const newParams = new Map(b.parameters.map((p) => [`${p.in} ${p.name}`, p]));
  const at = (parameter: string) => ({ part: 'parameter' as const, parameter });
  for (const [k, p] of oldParams) {
    const q = newParams.get(k);
    if (!q) add(true, `parameter ${k} removed`, undefined, at(k));
    else {
      if (q.required && !p.required) add(true, `parameter ${k} is now required`, undefined, at(k));
      // Parameters are named by `in` and `name` in the usage files: their schemas carry no pointer.
      const spots = { old: '', new: '', trail: [] };
      compareSchemas(
        oldDoc,
        newDoc,
        p.schema,
        q.schema,
        'request',
        '',
        (br, what, notice) => add(br, `parameter ${k}${what.replace(/^\(body\)/, '')}`, notice, at(k)),
        spots,
      );
    }
  }
  for (const [k, q] of newParams)
    if (!oldParams.has(k))
      add(Boolean(q.required), `${q.required ? 'required' : 'optional'} parameter ${k} added`, undefined, {
        part: 'operation',
      });
}

function compareBodies(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  { a, b }: { a: OperationEntry; b: OperationEntry },
  add: Add,
) {
  const oldBody = a.operation.requestBody ? resolveRef<JsonObject>(oldDoc, a.operation.requestBody) : undefined;
  const newBody = b.operation.requestBody ? resolveRef<JsonObject>(newDoc, b.operation.requestBody) : undefined;
  if (newBody?.required && !oldBody?.required)
    add(true, oldBody ? 'request body is now required' : 'required request body added');
  if (oldBody && !newBody) add(true, 'request body removed');
  if (!oldBody || !newBody) return;
  const holders = {
    old: a.operation.requestBody,
    new: b.operation.requestBody,
    oldPointer: childPointer(operationPointer(a), 'requestBody'),
    newPointer: childPointer(operationPointer(b), 'requestBody'),
  };
  compareContent(oldDoc, newDoc, holders, 'request', 'request body', (br, what, notice, spot) =>
    add(br, what, notice, { part: 'request', ...(spot ? { spot } : {}) }),
  );
}

function compareResponses(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  { a, b }: { a: OperationEntry; b: OperationEntry },
  add: Add,
) {
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
      else add(false, `response ${status} no longer documented`, undefined, { part: 'response', status });
      continue;
    }
    const holders = {
      old: response,
      new: next,
      oldPointer: childPointer(operationPointer(a), 'responses', status),
      newPointer: childPointer(operationPointer(b), 'responses', status),
    };
    compareContent(oldDoc, newDoc, holders, 'response', `response ${status}`, (br, what, notice, spot) =>
      add(br, what, notice, { part: 'response', status, ...(spot ? { spot } : {}) }),
    );
  }
  for (const status of Object.keys(newResponses))
    if (!(status in oldResponses)) add(false, `response ${status} added`, undefined, { part: 'response', status });
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
      out.push({
        breaking: true,
        where: label(a),
        what: 'operation removed (or its path or method changed)',
        location: { operation: locationOf(a), part: 'operation' },
      });
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
        location: { operation: locationOf(a), part: 'operation' },
      });
    }
    compareOperation(oldDoc, newDoc, { a, b, renamed }, label(b), out);
  }
  for (const b of newOps.values())
    if (!matched.has(b)) out.push({ breaking: false, where: label(b), what: 'operation added' });

  compareEvents(oldDoc, newDoc, out);
  return out.sort(
    (x, y) => Number(y.breaking) - Number(x.breaking) || Number(Boolean(y.notice)) - Number(Boolean(x.notice)),
  );
}

/** Events are sent by the service: a consumer receives their payloads as it receives responses. */
function compareEvents(oldDoc: OpenApiDocument, newDoc: OpenApiDocument, out: Change[]): void {
  const oldEvents = (oldDoc.webhooks ?? {}) as JsonObject;
  const newEvents = (newDoc.webhooks ?? {}) as JsonObject;
  for (const name of Object.keys(oldEvents)) {
    if (!(name in newEvents)) {
      out.push({
        breaking: true,
        where: `event ${name}`,
        what: 'event removed',
        location: { event: name, part: 'operation' },
      });
      continue;
    }
    const holders = {
      old: oldEvents[name].post?.requestBody,
      new: newEvents[name].post?.requestBody,
      oldPointer: childPointer('', 'webhooks', name, 'post', 'requestBody'),
      newPointer: childPointer('', 'webhooks', name, 'post', 'requestBody'),
    };
    compareContent(oldDoc, newDoc, holders, 'response', 'payload', (breaking, what, notice, spot) =>
      out.push({
        breaking,
        where: `event ${name}`,
        what,
        ...(notice ? { notice } : {}),
        location: { event: name, part: 'payload', ...(spot ? { spot } : {}) },
      }),
    );
  }
  for (const name of Object.keys(newEvents))
    if (!(name in oldEvents)) out.push({ breaking: false, where: `event ${name}`, what: 'event added' });
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
  return lines.map(visibleText).join('\n');
}
