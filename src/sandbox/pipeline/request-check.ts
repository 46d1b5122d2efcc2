// Stage 5, the request check: parameters and body against the operation's description (the route's
// validators), refused with the status the operation documents for a request that breaks it.
import type { IncomingMessage } from 'node:http';
import type { Route, Target } from '../contract/router.js';
import { refusals } from '../core/refusals.js';

export interface CheckedRequest {
  path: Record<string, string>;
  /** The documented query parameters, their values coerced to the types their schemas give. */
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

export function checkRequest(
  route: Route,
  params: Record<string, string>,
  target: Target,
  req: IncomingMessage,
  read: { body: unknown; hasBody: boolean },
): CheckedRequest {
  // Only the query parameters the operation documents: any other is ignored, never seen by a handler or a cache.
  const query: Record<string, unknown> = {};
  for (const name of route.queryNames) {
    // A parameter given twice counts with its last value.
    const value = target.searchParams.getAll(name).at(-1);
    if (value !== undefined) query[name] = value;
  }
  const headers = req.headers as Record<string, string | undefined>;
  const problems = route.checkRequest({ path: params, query, headers, body: read.body, hasBody: read.hasBody });
  if (problems.length)
    throw refusals.invalidRequest(route.invalidStatus, `The request breaks the description: ${problems.join('; ')}`);
  return { path: params, query, headers, body: read.body };
}
