// The request target: its path and query, as the listener, the router and the request check read them.
import type { Target } from '../contract/router.js';
import { refusals } from '../core/refusals.js';

/**
 * A plain origin-form target: `/`, then unreserved characters and `/`, then an optional query. Each part is one
 * character class under one quantifier, so a test takes time linear in the target, whatever it holds (a
 * nested quantifier backtracks exponentially on a long target that fails at its end).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9_~./-]*$/;
/** A dot segment or an empty segment: the URL parser, not a plain split, decides what such a path means. */
const ODD_SEGMENT = /\/\/|\/\.\.?(?:\/|$)/;

/**
 * The path and query of a request target. A plain one, as every client sends, is split as it is (parsing a
 * URL was a visible share of a read's time: BENCHMARKS.md); anything else (percent-escapes, dot segments, `//`) goes
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
