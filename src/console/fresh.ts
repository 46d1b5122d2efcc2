// Values a description requires to be unique (an endpoint's `name`, a user's `external_user_id` in the sandbox)
// made fresh for each send, so an operation's console or a journey sent twice on its default inputs is not
// refused the second time as a duplicate. Which fields those are is read from the descriptions when the site is
// built (scripts/site/fresh-fields.ts); here they are filled in.
import { pointerParts } from '../client/lookup/index.js';

/** A field of a request body that must be unique: where it is, and what its schema allows. */
export interface FreshField {
  /** JSON pointer into the body (`/name`). */
  pointer: string;
  format?: string;
  maxLength?: number;
}

/** By operationId, the body fields each send makes fresh. */
export type FreshFields = Record<string, FreshField[]>;

const SUFFIX = /-[0-9a-z]{6}$/;

/** A random suffix from the browser's (or Node's) crypto. */
const randomSuffix = () => crypto.randomUUID().replace(/-/g, '').slice(0, 6);

/** A new value for one field: a new UUID for a UUID, else the old text with a new six-character suffix. */
export function freshValue(field: FreshField, old: unknown): unknown {
  if (field.format === 'uuid') return crypto.randomUUID();
  if (typeof old !== 'string') return old;
  const suffix = `-${randomSuffix()}`;
  const base = old.replace(SUFFIX, '');
  const room = field.maxLength === undefined ? base.length : Math.max(0, field.maxLength - suffix.length);
  return `${base.slice(0, room)}${suffix}`;
}

function parentOf(body: unknown, pointer: string): { parent: Record<string, unknown>; key: string } | undefined {
  const parts = pointerParts(pointer);
  let node = body;
  for (const part of parts.slice(0, -1)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return { parent: node as Record<string, unknown>, key: parts.at(-1)! };
}

/** A copy of `body` with each of `fields` that it carries made fresh (a field it leaves out stays out). */
export function freshen(body: unknown, fields: FreshField[] | undefined): unknown {
  if (!fields?.length || !body || typeof body !== 'object') return body;
  const copy = structuredClone(body);
  for (const field of fields) {
    const at = parentOf(copy, field.pointer);
    if (at && at.parent[at.key] !== undefined) at.parent[at.key] = freshValue(field, at.parent[at.key]);
  }
  return copy;
}

/** The same, on the body as the console's editor holds it (JSON text); text that is not JSON is left as it is. */
export function freshenText(text: string, fields: FreshField[] | undefined): string {
  if (!fields?.length) return text;
  try {
    return JSON.stringify(freshen(JSON.parse(text), fields), null, 2);
  } catch {
    return text;
  }
}
