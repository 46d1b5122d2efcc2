// The request fields a call sends, down to the leaf field: the body followed to the literals it is built from
// (follow-value.ts) and walked through the operation's request body schema in the family's bundle, so that each
// field gets the pointer of its declaration there, the pointer the compatibility rules give a change to it. A
// part of the body that cannot be followed is recorded with its reason and the pointer of where it goes.
import type { ts as TS } from 'ts-morph';
import { isJsonObject, type JsonObject } from '../lookup/index.js';
import { type CallFound, type Context, siteOf } from './context.js';
import { followValue } from './follow-value.js';
import { childPointer, declaredAt, fieldAt, itemsAt, type Located, nodeAt } from './pointers.js';

/** Where the schema of an operation's request body is (its JSON media type's), or undefined without one. */
export function requestSchemaOf(ctx: Context, family: string, operationId: string): Located | undefined {
  const bundle = ctx.families.get(family);
  const operation = bundle?.pointers.get(operationId);
  if (!bundle || !operation) return undefined;
  const holder = childPointer(operation, 'requestBody');
  const body = declaredAt(bundle.doc, nodeAt(bundle.doc, holder), holder);
  const content = isJsonObject(body.node) ? body.node.content : undefined;
  if (!isJsonObject(content)) return undefined;
  const media = Object.keys(content);
  const json = media.includes('application/json')
    ? 'application/json'
    : (media.find((m) => /json/.test(m)) ?? media[0]);
  if (json === undefined) return undefined;
  const pointer = childPointer(body.pointer, 'content', json, 'schema');
  return { node: nodeAt(bundle.doc, pointer) as JsonObject, pointer };
}

/** What a reason calls the value sent: `the body` (is), `the credentials` (are), `the body's retryConfig` (is). */
export interface Subject {
  noun: string;
  verb: 'is' | 'are';
}

/**
 * Records the fields `value` sends at `schema` (undefined where the bundle has no schema for it) in `found`.
 * `path` is the field path from the body's top (`retryConfig`, `items[]`), empty at the top.
 */
export function recordSent(
  ctx: Context,
  value: TS.Expression,
  schema: Located | undefined,
  found: CallFound,
  subject: Subject,
  path = '',
): void {
  const doc = ctx.families.get(found.family)?.doc;
  followValue(ctx, value, {
    property(name, inner, node) {
      const field = doc && schema && fieldAt(doc, schema.node, schema.pointer, name);
      if (field) found.requestFields.push({ pointer: field.pointer, site: siteOf(ctx, node) });
      if (inner) recordSent(ctx, inner, field, found, subject, path ? `${path}.${name}` : name);
    },
    element(inner) {
      const items = doc && schema && itemsAt(doc, schema.node, schema.pointer);
      recordSent(ctx, inner, items, found, subject, `${path}[]`);
    },
    unknown(reason) {
      const what = path ? `${subject.noun}'s ${path} is` : `${subject.noun} ${subject.verb}`;
      const pointer = path ? schema?.pointer : undefined;
      found.dynamic.push({ reason: `${what} built at run time (${reason})`, ...(pointer ? { pointer } : {}) });
    },
  });
}
