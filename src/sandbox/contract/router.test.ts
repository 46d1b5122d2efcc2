// The router: a method and a path name one operation and its path parameters, or nothing, saying whether no
// operation has the path (the pipeline answers 404) or none has it with that method (405).

import { listOperations } from 'ramp-api/lookup';
import { describe, expect, it } from 'vitest';
import { SANDBOX_FAMILIES } from '../server.js';
import type { OpenApiDocument } from './document.js';
import { readBundleFile } from './document.js';
import { createRouter, type RouteMatch, type RouteMiss } from './router.js';

/** Matching never validates: a router whose validators may not be asked for. */
const noValidator = () => {
  throw new Error('the router validated while matching');
};

const reply = { responses: { '200': { description: 'ok' } } };
const things: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1' },
  paths: {
    '/things/{thingId}': {
      get: { operationId: 'getThing', ...reply },
      delete: { operationId: 'deleteThing', ...reply },
    },
    '/things/mine': { get: { operationId: 'getMyThing', ...reply } },
    '/things/{thingId}/parts/{partId}': { get: { operationId: 'getPart', ...reply } },
  },
} as unknown as OpenApiDocument;
const router = createRouter([{ family: 'things', doc: things }], noValidator);

/** The match, or the test fails naming what was missing. */
function found(result: RouteMatch | RouteMiss): RouteMatch {
  if (!result.route) throw new Error(`no route: the ${result.missing} is missing`);
  return result;
}

describe('matching a method and path', () => {
  it('names the operation and its decoded path parameters', () => {
    const { route, params } = found(router.match('get', '/things/a%20b/parts/7'));
    expect([route.entry.operationId, params]).toEqual(['getPart', { thingId: 'a b', partId: '7' }]);
    expect(found(router.match('delete', '/things/42')).route.entry.operationId).toBe('deleteThing');
  });

  it('prefers a fixed path to a template that would also match it', () => {
    expect(found(router.match('get', '/things/mine')).route.entry.operationId).toBe('getMyThing');
    expect(found(router.match('get', '/things/yours')).route.entry.operationId).toBe('getThing');
  });

  it('says whether no operation has the path, or none has it with the method', () => {
    expect(router.match('get', '/things')).toEqual({ missing: 'path' });
    expect(router.match('get', '/things/1/parts')).toEqual({ missing: 'path' });
    // With the methods the path takes, which a 405 sends as Allow (method-not-allowed.test.ts checks every path).
    expect(router.match('post', '/things/1')).toEqual({ missing: 'method', allowed: ['GET', 'DELETE'] });
  });

  it('matches no operation with a path parameter that is not valid percent-encoding', () => {
    expect(router.match('get', '/things/%E0%A4%A')).toEqual({ missing: 'path' });
  });

  it('routes every operation of the three bundles by its own path, with each template segment as a parameter', () => {
    const bundles = SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
    const sandboxRouter = createRouter(bundles, noValidator);
    const entries = bundles.flatMap(({ doc }) => listOperations(doc));
    expect(sandboxRouter.routes).toHaveLength(entries.length);
    for (const entry of entries) {
      const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => `value-of-${name}`);
      const { route, params } = found(sandboxRouter.match(entry.method, path));
      expect(route.entry.operationId, `${entry.method} ${entry.path}`).toBe(entry.operationId);
      for (const [name, value] of Object.entries(params)) expect(value).toBe(`value-of-${name}`);
    }
  });
});
