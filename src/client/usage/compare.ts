// The comparison of two bundles of the same API family: operations matched by method and path (a renamed path
// parameter keeps the route), then their parameters, bodies, responses and events, each pair of nodes handed to the
// rules that visit it (rules/), and the schemas under them walked by compare-schemas.ts. Each change names the rule
// that found it and says where it is, so that the gate and `ramp-api usage --check` can tell whom it breaks.
import {
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  resolveRef,
} from '../lookup/index.js';
import type { Change, ChangeLocation, SchemaSpot } from './change.js';
import { compareSchemas, type Direction, type SchemaWalk } from './compare-schemas.js';
import { childPointer, declaredAt } from './pointers.js';
import { rulesFor } from './rules/index.js';
import { isSuccess } from './rules/responses.js';
import type { CompatRule, NodeKind, Report, RuleDirection, Visited } from './rules/rule.js';

/** Where the changes of one operation or event go: the rule, its words, and where in the operation it is. */
type Add = (rule: CompatRule, what: string, at?: Omit<ChangeLocation, 'operation' | 'event'>) => void;

/** A change found by `rule`, breaking or a notice as the rule says. */
const changeOf = (rule: CompatRule, where: string, what: string, location?: ChangeLocation): Change => ({
  rule: rule.id,
  breaking: rule.verdict === 'breaking',
  where,
  what,
  ...(rule.verdict === 'notice' ? { notice: true } : {}),
  ...(location ? { location } : {}),
});

/** Hands `pair` to each rule that visits its kind in `direction`. */
function visit<K extends NodeKind>(
  kind: K,
  direction: RuleDirection,
  pair: Visited[K],
  report: (rule: CompatRule) => Report,
) {
  for (const rule of rulesFor(kind, direction)) rule.check(pair, report(rule));
}

const label = (e: OperationEntry) => `${e.method.toUpperCase()} ${e.path} (${e.operationId})`;
const contentOf = (doc: OpenApiDocument, holder: unknown) =>
  ((resolveRef(doc, holder) as JsonObject | undefined)?.content ?? {}) as JsonObject;

/** A request body, response or event payload of the old and the new description, with their pointers. */
interface Holders {
  old: unknown;
  new: unknown;
  oldPointer: string;
  newPointer: string;
}

/** Compares the media types of a request body or response, then the schema under each one both keep. */
function compareContent(
  docs: { oldDoc: OpenApiDocument; newDoc: OpenApiDocument },
  holders: Holders,
  direction: Direction,
  prefix: string,
  add: (rule: CompatRule, what: string, spot?: SchemaSpot) => void,
) {
  const { oldDoc, newDoc } = docs;
  const oldContent = contentOf(oldDoc, holders.old);
  const newContent = contentOf(newDoc, holders.new);
  visit(
    'content',
    direction,
    { old: oldContent, new: newContent },
    (rule) => (what) => add(rule, `${prefix}: ${what}`),
  );
  const walk: SchemaWalk = {
    oldDoc,
    newDoc,
    direction,
    found: (rule, what, spot) => add(rule, `${prefix}: ${what.replace(/^\(body\): /, '')}`, spot),
  };
  for (const type of Object.keys(oldContent)) {
    if (!(type in newContent)) continue;
    compareSchemas(walk, { old: oldContent[type].schema, new: newContent[type].schema }, '', {
      old: childPointer(declaredAt(oldDoc, holders.old, holders.oldPointer).pointer, 'content', type, 'schema'),
      new: childPointer(declaredAt(newDoc, holders.new, holders.newPointer).pointer, 'content', type, 'schema'),
      trail: [],
    });
  }
}

/** The pointer of an operation (`/paths/~1api~1x/post`) in its bundle. */
const operationPointer = (e: OperationEntry) => childPointer('', 'paths', e.path, e.method);
const locationOf = (e: OperationEntry) => ({ operationId: e.operationId, method: e.method, path: e.path });

/** The changes of an operation of both descriptions: the operation's own rules, then its parts. */
function compareOperation(pair: Visited['operation'] & { old: OperationEntry; new: OperationEntry }, out: Change[]) {
  const where = label(pair.new);
  const add: Add = (rule, what, at = { part: 'operation' }) =>
    out.push(changeOf(rule, where, what, { operation: locationOf(pair.old), ...at }));
  visit('operation', 'operation', pair, (rule) => (what) => add(rule, what));
  compareParameters(pair, add);
  compareBodies(pair, add);
  compareResponses(pair, add);
}

function compareParameters({ oldDoc, newDoc, old: a, new: b, renamed }: Visited['operation'], add: Add) {
  const key = (p: JsonObject) => `${p.in} ${p.in === 'path' ? (renamed.get(p.name) ?? p.name) : p.name}`;
  const oldParams = new Map(a!.parameters.map((p) => [key(p), p]));
  const newParams = new Map(b!.parameters.map((p) => [`${p.in} ${p.name}`, p]));
  for (const [k, p] of oldParams) {
    const q = newParams.get(k);
    const at = { part: 'parameter' as const, parameter: k };
    visit('parameter', 'request', { key: k, old: p, new: q }, (rule) => (what) => add(rule, what, at));
    if (!q) continue;
    // Parameters are named by `in` and `name` in the usage files: their schemas carry no pointer.
    const walk: SchemaWalk = {
      oldDoc,
      newDoc,
      direction: 'request',
      found: (rule, what) => add(rule, `parameter ${k}${what.replace(/^\(body\)/, '')}`, at),
    };
    compareSchemas(walk, { old: p.schema, new: q.schema }, '', { old: '', new: '', trail: [] });
  }
  for (const [k, q] of newParams)
    if (!oldParams.has(k))
      visit('parameter', 'request', { key: k, new: q }, (rule) => (what) => add(rule, what, { part: 'operation' }));
}

function compareBodies({ oldDoc, newDoc, old: a, new: b }: Visited['operation'], add: Add) {
  const oldBody = a!.operation.requestBody ? resolveRef<JsonObject>(oldDoc, a!.operation.requestBody) : undefined;
  const newBody = b!.operation.requestBody ? resolveRef<JsonObject>(newDoc, b!.operation.requestBody) : undefined;
  visit('body', 'request', { old: oldBody, new: newBody }, (rule) => (what) => add(rule, what));
  if (!oldBody || !newBody) return;
  const holders = {
    old: a!.operation.requestBody,
    new: b!.operation.requestBody,
    oldPointer: childPointer(operationPointer(a!), 'requestBody'),
    newPointer: childPointer(operationPointer(b!), 'requestBody'),
  };
  compareContent({ oldDoc, newDoc }, holders, 'request', 'request body', (rule, what, spot) =>
    add(rule, what, { part: 'request', ...(spot ? { spot } : {}) }),
  );
}

function compareResponses({ oldDoc, newDoc, old: a, new: b }: Visited['operation'], add: Add) {
  const oldResponses = (a!.operation.responses ?? {}) as JsonObject;
  const newResponses = (b!.operation.responses ?? {}) as JsonObject;
  const newSuccess = Object.keys(newResponses).filter(isSuccess);
  const statusRules = (status: string) => (rule: CompatRule) => (what: string) =>
    add(rule, what, { part: 'response', status });
  for (const [status, response] of Object.entries(oldResponses)) {
    const next = newResponses[status];
    visit('response', 'response', { status, old: response, new: next, newSuccess }, statusRules(status));
    if (!next) continue;
    const holders = {
      old: response,
      new: next,
      oldPointer: childPointer(operationPointer(a!), 'responses', status),
      newPointer: childPointer(operationPointer(b!), 'responses', status),
    };
    compareContent({ oldDoc, newDoc }, holders, 'response', `response ${status}`, (rule, what, spot) =>
      add(rule, what, { part: 'response', status, ...(spot ? { spot } : {}) }),
    );
  }
  for (const status of Object.keys(newResponses))
    if (!(status in oldResponses))
      visit('response', 'response', { status, new: newResponses[status], newSuccess }, statusRules(status));
}

/** `/api/{a}/x/{b}` without its parameter names, so that a renamed path parameter keeps the route. */
const routeShape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
const pathNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** The path parameters renamed from `a` to `b` (old name to new name). */
function renamedParameters(a: OperationEntry, b: OperationEntry): Map<string, string> {
  const renamed = new Map<string, string>();
  const after = pathNames(b.path);
  for (const [i, name] of pathNames(a.path).entries()) if (name !== after[i]) renamed.set(name, after[i]!);
  return renamed;
}

/** Each operation of `oldDoc` with its counterpart in `newDoc` (absent when removed), then those only `newDoc` has. */
function pairOperations(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): Visited['operation'][] {
  const byRoute = (doc: OpenApiDocument) => new Map(listOperations(doc).map((e) => [`${e.method} ${e.path}`, e]));
  const oldOps = byRoute(oldDoc);
  const newOps = byRoute(newDoc);
  const newByShape = new Map([...newOps.values()].map((e) => [routeShape(e.method, e.path), e]));
  const matched = new Set<OperationEntry>();
  const pairs: Visited['operation'][] = [];
  for (const [route, a] of oldOps) {
    const exact = newOps.get(route);
    // Same method and path shape, under a route the old description did not have: its path parameters were renamed.
    const reshaped = newByShape.get(routeShape(a.method, a.path));
    const b = exact ?? (reshaped && !oldOps.has(`${reshaped.method} ${reshaped.path}`) ? reshaped : undefined);
    if (b) matched.add(b);
    const renamed = b && !exact ? renamedParameters(a, b) : new Map<string, string>();
    pairs.push({ oldDoc, newDoc, old: a, ...(b ? { new: b } : {}), renamed });
  }
  for (const b of newOps.values()) if (!matched.has(b)) pairs.push({ oldDoc, newDoc, new: b, renamed: new Map() });
  return pairs;
}

/** Every change from `oldDoc` to `newDoc`, breaking ones first. */
export function compareDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument): Change[] {
  const out: Change[] = [];
  for (const pair of pairOperations(oldDoc, newDoc)) {
    const { old: a, new: b } = pair;
    if (a && b) compareOperation({ ...pair, old: a, new: b }, out);
    else
      visit('operation', 'operation', pair, (rule) => (what) => {
        const location = a ? { operation: locationOf(a), part: 'operation' as const } : undefined;
        out.push(changeOf(rule, label((b ?? a)!), what, location));
      });
  }
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
    const where = `event ${name}`;
    const location = { event: name, part: 'operation' as const };
    visit(
      'event',
      'operation',
      { name, old: oldEvents[name], new: newEvents[name] },
      (rule) => (what) => out.push(changeOf(rule, where, what, location)),
    );
    if (!(name in newEvents)) continue;
    const holders = {
      old: oldEvents[name].post?.requestBody,
      new: newEvents[name].post?.requestBody,
      oldPointer: childPointer('', 'webhooks', name, 'post', 'requestBody'),
      newPointer: childPointer('', 'webhooks', name, 'post', 'requestBody'),
    };
    compareContent({ oldDoc, newDoc }, holders, 'response', 'payload', (rule, what, spot) =>
      out.push(changeOf(rule, where, what, { event: name, part: 'payload', ...(spot ? { spot } : {}) })),
    );
  }
  for (const name of Object.keys(newEvents))
    if (!(name in oldEvents))
      visit(
        'event',
        'operation',
        { name, new: newEvents[name] },
        (rule) => (what) => out.push(changeOf(rule, `event ${name}`, what)),
      );
}
