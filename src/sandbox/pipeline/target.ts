// Stage 1, the target: the request's path and query, and the route (operation) they name.
import type { Route } from '../contract/router.js';
import { refusals } from '../core/refusals.js';

export interface Target {
  pathname: string;
  searchParams: URLSearchParams;
}

/**
 * A plain origin-form target: `/`, then unreserved characters and `/`, then an optional query. Each part is one
 * character class under one quantifier, so a test takes time linear in the target, whatever it holds (a
 * nested quantifier here once took minutes on `/` and 40 letters and a `!`).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9_~./-]*$/;
/** A dot segment or an empty segment: the URL parser, not a plain split, decides what such a path means. */
const ODD_SEGMENT = /\/\/|\/\.\.?(?:\/|$)/;

/**
 * The path and query of a request target. A plain one, as every client sends, is split as it is (parsing a
 * URL was 7% of the sandbox's time on a read); anything else (percent-escapes, dot segments, `//`) goes
 * through the URL parser, which normalizes it; one it cannot parse is refused.
 */
export function requestTarget(target: string): Target {
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path) && !ODD_SEGMENT.test(path) && (query < 0 || !target.includes('#', query))) {
    return { pathname: path, searchParams: new URLSearchParams(query < 0 ? '' : target.slice(query + 1)) };
  }
  try {
    return new URL(target, 'http://sandbox.invalid');
  } catch {
    throw refusals.malformedTarget();
  }
}

/**
 * The route `method` and `pathname` name, with its path parameters; 404 for no path, 405 for another method
 * (with the methods the path takes, for `Allow`).
 */
export function findRoute(
  routes: readonly Route[],
  method: string,
  pathname: string,
): { route: Route; params: Record<string, string> } {
  const allowed: string[] = [];
  const segments = pathname.split('/').length;
  for (const route of routes) {
    if (route.segments !== segments) continue;
    const params = route.match(pathname);
    if (!params) continue;
    if (route.entry.method === method) return { route, params };
    allowed.push(route.entry.method.toUpperCase());
  }
  throw allowed.length ? refusals.methodNotAllowed(method, pathname, allowed) : refusals.noOperation(method, pathname);
}
