// Stage 4, the body: read only for an operation that takes one, and only as JSON (415 otherwise, 413 past
// 1 MiB). One sent to an operation that takes none is left unread (the connection is closed after the answer).
import type { IncomingMessage } from 'node:http';
import type { Route } from '../contract/router.js';
import { hasBody, parseBody, readBody, requireJson } from './request-body.js';

export async function requestBody(route: Route, req: IncomingMessage): Promise<{ body: unknown; hasBody: boolean }> {
  if (!route.acceptsBody || !hasBody(req)) return { body: undefined, hasBody: false };
  requireJson(req);
  const text = await readBody(req);
  return text.length
    ? { body: parseBody(text, route.invalidStatus), hasBody: true }
    : { body: undefined, hasBody: false };
}
