// Request bodies as the sandbox takes them: JSON only (415 otherwise), at most 1 MiB (413), nested at most
// MAX_JSON_DEPTH levels, no text over MAX_TEXT_CHARS, no NUL character in any text and no number JSON cannot
// carry back. Each refusal names what was wrong; none of them reaches a handler or the database.
import type { IncomingMessage } from 'node:http';
import { refusals } from '../core/refusals.js';
import { MAX_DELIVERY_BYTES } from '../events/store.js';
import { MAX_TEXT_CHARS } from '../store/quotas.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The most read for an operation that needs no token (the token calls, the KYC and checkout pages' calls),
 * which reads its body before anyone is known: their bodies are a few short fields.
 */
export const MAX_PUBLIC_BODY_BYTES = 16 * 1024;
/** Objects and arrays inside one another, at most (the sandbox's limit: no body of either API nests more than 4). */
const MAX_JSON_DEPTH = 32;

/** Whether the request carries a body: a length other than 0, or a chunked one. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length.trim() !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** The media type of a Content-Type header, lowercased, without its parameters; '' when there is none. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The charset a Content-Type names (`charset=utf-8`), lower-cased and unquoted; undefined when it names none. */
function charsetOf(header: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(header ?? '');
  return match ? match[2]!.toLowerCase() : undefined;
}

/**
 * Refuses a body that is not sent as JSON in UTF-8 (415): the descriptions take `application/json` only, and
 * JSON is UTF-8 (RFC 8259), so a charset other than `utf-8` says the body is not what the sandbox would read.
 */
export function requireJson(req: IncomingMessage): void {
  const type = mediaType(req.headers['content-type']);
  if (type !== 'application/json') {
    throw refusals.unsupportedMediaType(
      `The body must be JSON sent with Content-Type: application/json; got ${type ? `"${type.slice(0, 100)}"` : 'no Content-Type'}.`,
    );
  }
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8')
    throw refusals.unsupportedMediaType(
      `The body must be JSON in UTF-8 (Content-Type: application/json, or with charset=utf-8); got charset=${JSON.stringify(charset.slice(0, 40))}.`,
    );
}

/** The most read of one operation's body, and the words that say so in its 413. */
export interface BodyLimit {
  bytes: number;
  said: string;
}

/**
 * MAX_BODY_BYTES; MAX_PUBLIC_BODY_BYTES for an operation that needs no token, but MAX_DELIVERY_BYTES for the
 * sandbox's own receiver (`receiveDelivery`), which takes every delivery the sandbox makes.
 */
export function bodyLimit(route: { secured: boolean; entry: { operationId: string } }): BodyLimit {
  if (route.entry.operationId === 'receiveDelivery')
    return { bytes: MAX_DELIVERY_BYTES, said: '1 MiB and 16 KiB, the largest delivery the sandbox makes' };
  return route.secured
    ? { bytes: MAX_BODY_BYTES, said: '1 MiB' }
    : { bytes: MAX_PUBLIC_BODY_BYTES, said: '16 KiB, for an operation that needs no token' };
}

/**
 * The body as text, refused with 413 as soon as it passes `limit`: a declared length over it is refused before
 * anything is read, and the rest of a longer body is not read.
 */
export async function readBody(req: IncomingMessage, limit: BodyLimit): Promise<string> {
  const tooLarge = () =>
    refusals.tooLarge(`The body is over ${limit.bytes} bytes (${limit.said}), the most the sandbox reads.`);
  if (Number(req.headers['content-length']) > limit.bytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit.bytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The deepest nesting of objects and arrays in a JSON text, counted without parsing it (strings skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) deepest = Math.max(deepest, ++depth);
    else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

/**
 * What the sandbox cannot take in a parsed body, each with where it is: a NUL character in a text or a key
 * (PostgreSQL text cannot hold U+0000), and a number too large for a JSON number (`1e400` parses to Infinity).
 * The body is at most MAX_JSON_DEPTH deep when this runs, so the recursion is bounded.
 */
function unstorable(value: unknown, at = 'body', found: string[] = []): string[] {
  if (found.length >= 5) return found;
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      found.push(`${at} contains a NUL character (U+0000), which the sandbox does not accept in any text`);
    if (value.length > MAX_TEXT_CHARS)
      found.push(`${at} is ${value.length} characters long; the sandbox takes at most ${MAX_TEXT_CHARS} in any text`);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push(`${at} is a number too large to hold (${value})`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      unstorable(item, `${at}[${i}]`, found);
    });
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000'))
        found.push(`${at} has a key with a NUL character (U+0000), which the sandbox does not accept in any text`);
      if (key.length > MAX_TEXT_CHARS)
        found.push(
          `${at} has a key ${key.length} characters long; the sandbox takes at most ${MAX_TEXT_CHARS} in any text`,
        );
      unstorable(item, `${at}/${key.replaceAll('\u0000', '\\u0000').slice(0, 60)}`, found);
    }
  }
  return found;
}

/**
 * The parsed body, or a refusal with `invalidStatus` (the operation's documented status for a request that breaks
 * its description) naming what is wrong.
 */
export function parseBody(text: string, invalidStatus: number): unknown {
  const depth = jsonDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw refusals.invalidRequest(
      invalidStatus,
      `The body nests objects and arrays ${depth} levels deep; the sandbox takes at most ${MAX_JSON_DEPTH}.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refusals.invalidRequest(invalidStatus, 'The body is not valid JSON.');
  }
  const problems = unstorable(body);
  if (problems.length)
    throw refusals.invalidRequest(invalidStatus, `The request cannot be taken: ${problems.join('; ')}.`);
  return body;
}
