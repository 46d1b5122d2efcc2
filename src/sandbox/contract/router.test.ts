// The router: a method and a path name one operation and its path parameters, or a 404 (no such path) or a 405
// (the path, but another method); a request target is split into path and query, normalized where it is odd,
// refused where it cannot be parsed.
import { describe, expect, it } from 'vitest';
import { Refusal, REFUSALS } from '../core/refusals.js';
import { SANDBOX_FAMILIES } from '../server.js';
import type { OpenApiDocument } from './document.js';
import { readBundleFile } from './document.js';
import { listOperations } from './lookup.js';
import { createRouter, requestTarget } from './router.js';

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

function refusalOf(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no refusal');
}

describe('matching a method and path', () => {
  it('names the operation and its decoded path parameters', () => {
    const { route, params } = router.match('get', '/things/a%20b/parts/7');
    expect([route.entry.operationId, params]).toEqual(['getPart', { thingId: 'a b', partId: '7' }]);
    expect(router.match('delete', '/things/42').route.entry.operationId).toBe('deleteThing');
  });

  it('prefers a fixed path to a template that would also match it', () => {
    expect(router.match('get', '/things/mine').route.entry.operationId).toBe('getMyThing');
    expect(router.match('get', '/things/yours').route.entry.operationId).toBe('getThing');
  });

  it('answers 404 for a path of no operation, 405 for a known path and another method', () => {
    expect(refusalOf(() => router.match('get', '/things'))).toEqual({
      status: 404,
      code: REFUSALS.noOperation.code,
      message: 'No operation for GET /things.',
    });
    expect(refusalOf(() => router.match('get', '/things/1/parts'))).toMatchObject({ status: 404 });
    expect(refusalOf(() => router.match('post', '/things/1'))).toEqual({
      status: 405,
      code: REFUSALS.methodNotAllowed.code,
      message: 'No operation for POST /things/1.',
    });
  });

  it('matches no operation with a path parameter that is not valid percent-encoding', () => {
    expect(refusalOf(() => router.match('get', '/things/%E0%A4%A'))).toMatchObject({ status: 404 });
  });

  it('routes every operation of the three bundles by its own path, with each template segment as a parameter', () => {
    const bundles = SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
    const sandboxRouter = createRouter(bundles, noValidator);
    const entries = bundles.flatMap(({ doc }) => listOperations(doc));
    expect(sandboxRouter.routes).toHaveLength(entries.length);
    for (const entry of entries) {
      const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => `value-of-${name}`);
      const { route, params } = sandboxRouter.match(entry.method, path);
      expect(route.entry.operationId, `${entry.method} ${entry.path}`).toBe(entry.operationId);
      for (const [name, value] of Object.entries(params)) expect(value).toBe(`value-of-${name}`);
    }
  });
});

describe('the request target', () => {
  it('splits a plain target into its path and query as it is', () => {
    const target = requestTarget('/api/v1/users?page=2&size=5');
    expect([target.pathname, target.searchParams.get('page'), target.searchParams.get('size')]).toEqual([
      '/api/v1/users',
      '2',
      '5',
    ]);
  });

  it('normalizes dot segments and empty segments as the URL parser does', () => {
    expect(requestTarget('/api/v1/../token').pathname).toBe('/api/token');
    expect(requestTarget('/api/./infoClient#part').pathname).toBe('/api/infoClient');
  });

  it('refuses a target the URL parser cannot parse with 400', () => {
    expect(refusalOf(() => requestTarget('//'))).toMatchObject({ status: 400, code: REFUSALS.malformedTarget.code });
  });
});
