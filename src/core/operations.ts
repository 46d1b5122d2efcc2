// The operation table of an API family (generated from its description) and matching a request to it.
import type { CallInfo } from './errors.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethodName = (typeof HTTP_METHODS)[number];

export interface OperationSpec {
  readonly method: HttpMethodName;
  readonly path: string;
  readonly secured: boolean;
}

export type OperationTable = Readonly<Record<string, OperationSpec>>;

export interface MatchedOperation extends CallInfo {
  secured: boolean;
}

/** Finds the documented operation behind a method and URL path, with a small cache of recent answers. */
export function createOperationMatcher(table: OperationTable, basePath: string): (method: string, pathname: string) => MatchedOperation {
  const compiled = Object.entries(table).map(([operationId, spec]) => ({
    operationId,
    spec,
    method: spec.method.toUpperCase(),
    pattern: new RegExp(`^${spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  }));
  const cache = new Map<string, MatchedOperation>();
  return (method, pathname) => {
    const key = `${method} ${pathname}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const relative = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) || '/' : pathname;
    const found = compiled.find((c) => c.method === method && c.pattern.test(relative));
    const matched: MatchedOperation = found
      ? { operationId: found.operationId, method, path: found.spec.path, secured: found.spec.secured }
      : { operationId: null, method, path: relative, secured: true };
    if (cache.size >= 500) cache.clear();
    cache.set(key, matched);
    return matched;
  };
}

/** The operation to report for an operationId the client called directly. */
export function operationById(table: OperationTable, operationId: string, method: string): MatchedOperation | undefined {
  const spec = table[operationId];
  return spec && { operationId, method, path: spec.path, secured: spec.secured };
}
