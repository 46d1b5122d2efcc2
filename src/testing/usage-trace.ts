// Test support: the trace of what an example consumer (contract-tests/consumers/<name>/) reads of the answers it
// gets, while its tests run against the sandbox. The ramp-api clients it makes, `orThrow` and `unwrap`, and the
// webhook receiver's handlers are wrapped (./usage-trace-setup.ts installs the wrapping with vitest's module
// mocks; production code is untouched) so that every answer's `data` and `error` and every event's payload is a
// Proxy that records each property read: the consumer, the family, the operation or event, the status, the
// field's schema pointer (the usage file's kind: resolved in the family's bundle with src/client/usage/pointers.ts
// from the response's or payload's schema) and the site, the first frame of the read in the consumer's own code: the
// folders its tsconfig.json includes, which its usage file covers (src/, and test/ where a consumer includes its
// tests). Reads made elsewhere (by tests the usage file does not cover, or by library code none of the consumer's
// frames called) are not recorded.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { OpenApiDocument } from '../client/lookup/index.js';
import { type FamilyBundle, familyBundle } from '../client/usage/bundles.js';
import { childPointer, declaredAt, fieldAt, itemsAt, nodeAt } from '../client/usage/pointers.js';
import { readBundleJson } from './repo.js';
import { EXAMPLE_CONSUMERS } from './usage-project.js';

/** One property read of an answer or a payload, made by a consumer's own code. */
export interface TracedRead {
  consumer: string;
  family: string;
  /** The operationId of the call, or the event's name. */
  operation: string;
  kind: 'response' | 'event';
  /** The answer's HTTP status (`''` for an event). */
  status: string;
  /** The field's pointer in the family's bundle, as a usage file names it. */
  pointer: string;
  /** The pointers of the values the read went through, from the answer's schema down to the field's object. */
  trail: string[];
  /** `src/file.ts:line` in the consumer's folder. */
  site: string;
  /**
   * Every place the field's object declares it (the parts of an `allOf`, `oneOf` or `anyOf` each may), `pointer`
   * first: a breaking change to the field is one to all of them.
   */
  declarations: string[];
}

interface Place {
  bundle: FamilyBundle;
  operation: string;
  kind: TracedRead['kind'];
  status: string;
  node: unknown;
  pointer: string;
  trail: string[];
  declarations: string[];
}

const reads = new Map<string, TracedRead>();

/** The reads recorded so far in this process, each once. */
export const tracedReads = (): TracedRead[] => [...reads.values()];

const bundles = new Map<string, FamilyBundle>();
function bundleOf(family: string): FamilyBundle {
  let bundle = bundles.get(family);
  if (!bundle) {
    bundle = familyBundle(family, readBundleJson<OpenApiDocument>(family));
    bundles.set(family, bundle);
  }
  return bundle;
}

/** The folders a consumer's tsconfig.json includes (`src`, and `test` where its tests are part of its usage). */
function includedFolders(consumer: string): string[] {
  const tsconfig = join(EXAMPLE_CONSUMERS, consumer, 'tsconfig.json');
  if (!existsSync(tsconfig)) return [];
  const { include } = JSON.parse(readFileSync(tsconfig, 'utf8')) as { include?: string[] };
  return (include ?? []).map((path) => path.split('/')[0]!);
}

const FRAME = /\(?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/;

/** The consumer and `src/file.ts:line` of the first frame of the stack in an example consumer, if in its src/. */
export function consumerSite(stack: string): { consumer: string; site: string } | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const file = relative(EXAMPLE_CONSUMERS, match[1]!.replace(/^file:\/\//, ''));
    if (file.startsWith('..')) continue;
    const [consumer, folder, ...rest] = file.split(sep);
    if (!consumer || !folder || !includedFolders(consumer).includes(folder)) return undefined;
    return { consumer, site: `${folder}/${rest.join('/')}:${match[2]}` };
  }
  return undefined;
}

function callerSite(): { consumer: string; site: string } | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return consumerSite(stack);
}

function record(place: Place): void {
  const at = callerSite();
  if (!at) return;
  const read: TracedRead = {
    ...at,
    family: place.bundle.family,
    operation: place.operation,
    kind: place.kind,
    status: place.status,
    pointer: place.pointer,
    trail: place.trail,
    declarations: place.declarations,
  };
  reads.set(JSON.stringify([read.consumer, read.family, read.operation, read.status, read.pointer, read.site]), read);
}

/** Keys the language reads of any value (`then` by await, `toJSON` by JSON.stringify) and Object.prototype's. */
const PROTOCOL = new Set(['then', 'toJSON']);
const notAField = (target: object, key: string) =>
  !Object.hasOwn(target, key) && (PROTOCOL.has(key) || key in Object.prototype);

const raw = new WeakMap<object, { target: object; place: Place }>();

/** The place of the field `key` of the object at `place`. */
function fieldPlace(place: Place, key: string): Place {
  const { doc } = place.bundle;
  const declared = declaredAt(doc, place.node, place.pointer);
  const field = fieldAt(doc, place.node, place.pointer, key);
  const trail = [...new Set([...place.trail, place.pointer, declared.pointer])];
  const declarations = [...new Set([field.pointer, ...declarationsOf(doc, place.node, place.pointer, key)])];
  return { ...place, node: field.node, pointer: field.pointer, trail, declarations };
}

/** The pointers of every declaration of the field `name` in the schema at `pointer` and its composed parts. */
function declarationsOf(doc: OpenApiDocument, node: unknown, pointer: string, name: string, depth = 0): string[] {
  const at = declaredAt(doc, node, pointer);
  if (!at.node || typeof at.node !== 'object' || depth > 20) return [];
  const own = (at.node.properties as Record<string, unknown> | undefined)?.[name];
  const found = own === undefined ? [] : [childPointer(at.pointer, 'properties', name)];
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const parts = at.node[keyword];
    if (Array.isArray(parts))
      for (const [i, part] of parts.entries())
        found.push(...declarationsOf(doc, part, childPointer(at.pointer, keyword, String(i)), name, depth + 1));
  }
  return found;
}

function itemPlace(place: Place): Place {
  const items = itemsAt(place.bundle.doc, place.node, place.pointer);
  const trail = [...new Set([...place.trail, place.pointer])];
  return { ...place, node: items.node, pointer: items.pointer, trail, declarations: [items.pointer] };
}

const isIndex = (key: string) => /^(0|[1-9]\d*)$/.test(key);

/** `value` wrapped so that reads of its fields (and of theirs) are recorded at `place`. */
export function traced<T>(value: T, place: Place): T {
  if (!value || typeof value !== 'object' || raw.has(value)) return value;
  const array = Array.isArray(value);
  const readField = (target: object, key: string) => {
    if (array) return isIndex(key) ? itemPlace(place) : undefined;
    if (notAField(target, key)) return undefined;
    const child = fieldPlace(place, key);
    record(child);
    return child;
  };
  const proxy = new Proxy(value as object, {
    get(target, key, receiver) {
      const result = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return result;
      const child = readField(target, key);
      return child ? traced(result, child) : result;
    },
    has(target, key) {
      if (typeof key === 'string') readField(target, key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      for (const key of keys) if (typeof key === 'string') readField(target, key);
      return keys;
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') readField(target, key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  raw.set(proxy, { target: value as object, place });
  return proxy as T;
}

/** The value a traced one wraps (itself if not traced). */
export const untraced = <T>(value: T): T =>
  (value && typeof value === 'object' ? (raw.get(value)?.target as T | undefined) : undefined) ?? value;

/** Where the traced value sits, if it is one. */
export const placeOf = (value: unknown): Place | undefined =>
  value && typeof value === 'object' ? raw.get(value)?.place : undefined;

/** The schema of the answer of `operationId` with `status`, or undefined when it documents none. */
export function responsePlace(family: string, operationId: string, status: number): Place | undefined {
  const bundle = bundleOf(family);
  const opPointer = bundle.pointers.get(operationId);
  const responses = opPointer ? (nodeAt(bundle.doc, `${opPointer}/responses`) as Record<string, unknown>) : undefined;
  if (!opPointer || !responses) return undefined;
  const code = [String(status), `${String(status)[0]}XX`, 'default'].find((c) => c in responses);
  if (!code) return undefined;
  const response = declaredAt(bundle.doc, responses[code], childPointer(opPointer, 'responses', code));
  return contentPlace(bundle, response, operationId, 'response', String(status));
}

/** The schema of the payload of `event`. */
export function payloadPlace(family: string, event: string): Place | undefined {
  const bundle = bundleOf(family);
  const opPointer = childPointer('', 'webhooks', event, 'post');
  const holder = nodeAt(bundle.doc, `${opPointer}/requestBody`);
  if (!holder) return undefined;
  const body = declaredAt(bundle.doc, holder, childPointer(opPointer, 'requestBody'));
  return contentPlace(bundle, body, event, 'event', '');
}

function contentPlace(
  bundle: FamilyBundle,
  holder: { node: unknown; pointer: string },
  operation: string,
  kind: Place['kind'],
  status: string,
): Place | undefined {
  const content = ((holder.node as { content?: Record<string, { schema?: unknown }> }).content ?? {}) as Record<
    string,
    { schema?: unknown }
  >;
  const media = Object.keys(content).find((m) => m.includes('json')) ?? Object.keys(content)[0];
  const schema = media === undefined ? undefined : content[media]?.schema;
  if (schema === undefined) return undefined;
  const pointer = childPointer(holder.pointer, 'content', media!, 'schema');
  return { bundle, operation, kind, status, node: schema, pointer, trail: [], declarations: [pointer] };
}

/** Whether `name` is an operationId of the family. */
export const isOperation = (family: string, name: string) =>
  bundleOf(family).operations.some((o) => o.operationId === name);

/** The operationId of a path-based call. */
export function operationAt(family: string, method: string, path: string): string | undefined {
  return bundleOf(family).operations.find((o) => o.method === method.toLowerCase() && o.path === path)?.operationId;
}
