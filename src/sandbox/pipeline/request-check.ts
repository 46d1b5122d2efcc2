// Stage 5, the request check: parameters and body against the operation's description (the route's
// validators), refused with the status the operation documents for a request that breaks it.
import type { IncomingMessage } from 'node:http';
import type { Route } from '../contract/router.js';
import { refusals } from '../core/refusals.js';
import type { Target } from './target.js';

export interface CheckedRequest {
  path: Record<string, string>;
  /** The query, its values coerced to the types their schemas give. */
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
  const query: Record<string, unknown> = Object.fromEntries(target.searchParams);
  const headers = req.headers as Record<string, string | undefined>;
  const problems = route.checkRequest({ path: params, query, headers, body: read.body, hasBody: read.hasBody });
  if (problems.length)
    throw refusals.invalidRequest(route.invalidStatus, `The request breaks the description: ${problems.join('; ')}`);
  return { path: params, query, headers, body: read.body };
}
