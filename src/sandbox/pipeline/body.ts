// Stage 4, the body: a write with a form's content type, or two Content-Type headers, refused (415) by the
// listener before anything else (refuseContentType), whether or not the operation takes a body; then the body
// read only for an operation that takes one, and only as JSON (415 otherwise, 413 past 1 MiB, or 16 KiB for an
// operation that needs no token but the sandbox's own receiver, which takes every delivery the sandbox makes).
// One sent to an operation that takes none is left unread (the connection is closed after the answer).
import type { IncomingMessage } from 'node:http';
import type { Route } from '../contract/router.js';
import { refusals } from '../core/refusals.js';
import { bodyLimit, hasBody, mediaType, parseBody, readBody, requireJson } from './request-body.js';

const NO_BODY = { body: undefined, hasBody: false } as const;

/**
 * The content types an HTML form of any web site can send to another one without a preflight asking first (the
 * CORS-safelisted ones). The typed clients never send them; a write that does is refused whatever its Origin.
 */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
/** The methods that change nothing. */
export const SAFE_METHODS = new Set(['get', 'head', 'options']);

/**
 * Refuses (415) a write whose content type cannot be taken, before anything else is asked of it (its Origin
 * included): two Content-Type headers (Node keeps the first of them, another reader might take the second), or
 * a form's content type, also to an operation that takes no body.
 */
export function refuseContentType(req: IncomingMessage, method: string): void {
  if (SAFE_METHODS.has(method)) return;
  const named = req.rawHeaders.filter((value, i) => i % 2 === 0 && value.toLowerCase() === 'content-type');
  if (named.length > 1)
    throw refusals.unsupportedMediaType(
      `The request carries ${named.length} Content-Type headers; send one (application/json for a body).`,
    );
  const type = mediaType(req.headers['content-type']);
  if (FORM_TYPES.has(type))
    throw refusals.unsupportedMediaType(
      `A request that changes state is not taken with Content-Type: ${type}, a type an HTML form of any web site can send; send its body as JSON (Content-Type: application/json), or no body and no Content-Type.`,
    );
}

/** The request's body; without one, answered at once rather than as a promise (most calls take no extra turn). */
export function requestBody(
  route: Route,
  req: IncomingMessage,
): { body: unknown; hasBody: boolean } | Promise<{ body: unknown; hasBody: boolean }> {
  if (!route.acceptsBody || !hasBody(req)) return NO_BODY;
  return readJsonBody(route, req);
}

async function readJsonBody(route: Route, req: IncomingMessage): Promise<{ body: unknown; hasBody: boolean }> {
  requireJson(req);
  const text = await readBody(req, bodyLimit(route));
  return text.length
    ? { body: parseBody(text, route.invalidStatus), hasBody: true }
    : { body: undefined, hasBody: false };
}
