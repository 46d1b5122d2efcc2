// Stage 4, the body: read only for an operation that takes one, and only as JSON (415 otherwise, 413 past
// 1 MiB, or 16 KiB for an operation that needs no token but the sandbox's own receiver, which takes every delivery
// the sandbox makes). One sent to an operation that takes none is left unread (the connection is closed after the answer).
import type { IncomingMessage } from 'node:http';
import type { Route } from '../contract/router.js';
import { bodyLimit, hasBody, parseBody, readBody, requireJson } from './request-body.js';

const NO_BODY = { body: undefined, hasBody: false } as const;

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
