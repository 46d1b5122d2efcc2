// Two clients in one process share nothing but immutable data: each call carries its own token, deadline and
// signal, whatever order the calls' steps interleave in, and whenever openapi-fetch gets round to the fetch.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import type * as RampApi from '../index.js';

const TENANTS = {
  a: { clientId: '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13', clientSecret: 'tenant-a-secret' },
  b: { clientId: '3c9f6a2e-1b7d-4f05-9e84-6a2d0c7b5e91', clientSecret: 'tenant-b-secret' },
} as const;
type Tenant = keyof typeof TENANTS;

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A service that issues `tok-a` or `tok-b` by the credentials sent, and answers every other call after the delay
 * its `x-delay` header asks for, with the Authorization it received.
 */
async function twoTenantService(): Promise<LocalServer> {
  server = await startLocalServer(async (req, res, body) => {
    if (req.url === '/api/token') {
      const { clientId } = JSON.parse(body) as { clientId: string };
      const tenant = (Object.keys(TENANTS) as Tenant[]).find((t) => TENANTS[t].clientId === clientId);
      return json(res, tenant ? 200 : 401, tenant ? { accessToken: `tok-${tenant}` } : { message: 'unknown' });
    }
    await new Promise((resolve) => setTimeout(resolve, Number(req.headers['x-delay'] ?? 0)));
    if (!res.destroyed) json(res, 200, { seen: req.headers.authorization ?? null });
  });
  return server;
}

/**
 * openapi-fetch as published calls its fetch in the same turn as the call; a later release (or one whose
 * serializers await) may call it after other calls have started. The second variant imports the package with
 * an openapi-fetch whose every fetch (the client's, or one call's) runs after a delay of its own.
 */
async function loadClient(deferred: boolean): Promise<typeof RampApi> {
  if (!deferred) return import('../index.js');
  vi.resetModules();
  vi.doMock('openapi-fetch', async (importOriginal) => {
    const real = await importOriginal<typeof import('openapi-fetch')>();
    const delays = [7, 1, 12, 3, 9, 0, 5];
    let turn = 0;
    const later = (fetch: typeof globalThis.fetch | undefined) =>
      fetch &&
      (async (input: Request, init?: RequestInit) => {
        await new Promise((resolve) => setTimeout(resolve, delays[turn++ % delays.length]));
        return fetch(input, init);
      });
    const createClient = ((options: Record<string, unknown> = {}) => {
      const client = real.default({ ...options, fetch: later(options.fetch as typeof fetch | undefined) });
      const request = client.request.bind(client);
      client.request = ((method: never, path: never, init?: Record<string, unknown>) =>
        request(
          method,
          path,
          (init?.fetch ? { ...init, fetch: later(init.fetch as typeof fetch) } : init) as never,
        )) as never;
      return client;
    }) as typeof real.default;
    return { ...real, default: createClient };
  });
  try {
    return await import('../index.js');
  } finally {
    vi.doUnmock('openapi-fetch');
  }
}
afterAll(() => vi.resetModules());

describe.each([
  ['openapi-fetch as published', false],
  ['an openapi-fetch that calls its fetch later', true],
])('two clients of different tenants, with %s', (_name, deferred) => {
  it('never send one tenant the other tenant’s token, nor end a call at the other client’s deadline', async () => {
    const { createBusinessClient, TimeoutError } = await loadClient(deferred);
    const service = await twoTenantService();
    const clients = {
      a: createBusinessClient({ baseUrl: service.url, auth: { credentials: TENANTS.a }, timeoutMs: 5_000 }),
      b: createBusinessClient({ baseUrl: service.url, auth: { credentials: TENANTS.b }, timeoutMs: 800 }),
    };
    // Interleaved: each client's calls start between the other's, some answered quickly, some slowly; tenant
    // a's slow calls outlast tenant b's deadline, tenant b's slow one outlasts its own.
    const plan: [Tenant, number][] = [
      ['a', 1_200],
      ['b', 5],
      ['a', 0],
      ['b', 2_000],
      ['a', 1_000],
      ['b', 0],
      ['a', 5],
      ['b', 20],
    ];
    const outcomes = await Promise.all(
      plan.map(([tenant, delay]) =>
        clients[tenant].getClientInfo({ headers: { 'x-delay': String(delay), 'x-tenant': tenant } }).then(
          ({ data }) => ({ tenant, delay, seen: (data as { seen: string }).seen }),
          (error: unknown) => ({ tenant, delay, error }),
        ),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.tenant === 'b' && outcome.delay === 2_000) {
        expect(outcome).toMatchObject({ error: expect.any(TimeoutError) });
        expect((outcome as { error: { timeoutMs: number } }).error.timeoutMs).toBe(800);
      } else {
        expect(outcome).toEqual({ tenant: outcome.tenant, delay: outcome.delay, seen: `Bearer tok-${outcome.tenant}` });
      }
    }
    const calls = service.requests.filter((r) => r.url !== '/api/token');
    expect(calls).toHaveLength(plan.length);
    for (const call of calls) expect(call.headers.authorization).toBe(`Bearer tok-${call.headers['x-tenant']}`);
  });

  it('ends only the call whose caller aborted, and keeps each call’s own timeout', async () => {
    const { createBusinessClient, TimeoutError } = await loadClient(deferred);
    const service = await twoTenantService();
    const a = createBusinessClient({ baseUrl: service.url, auth: { credentials: TENANTS.a }, timeoutMs: 3_000 });
    const b = createBusinessClient({ baseUrl: service.url, auth: { credentials: TENANTS.b }, timeoutMs: 3_000 });
    const controller = new AbortController();
    const slow = { headers: { 'x-delay': '300' } };
    const settled = Promise.allSettled([
      a.getClientInfo({ ...slow, signal: controller.signal }),
      b.getClientInfo(slow),
      a.getClientInfo({ ...slow, timeoutMs: 100 }),
      b.getClientInfo(slow),
      a.getClientInfo(slow),
    ]);
    setTimeout(() => controller.abort(new Error('caller of a gave up')), 50);
    const [aborted, b1, timedOut, b2, a2] = await settled;
    expect(aborted).toMatchObject({ status: 'rejected', reason: { message: 'caller of a gave up' } });
    expect(timedOut).toMatchObject({ status: 'rejected', reason: expect.any(TimeoutError) });
    expect((timedOut as PromiseRejectedResult).reason.timeoutMs).toBe(100);
    for (const [result, tenant] of [
      [b1, 'b'],
      [b2, 'b'],
      [a2, 'a'],
    ] as const) {
      expect(result).toMatchObject({ status: 'fulfilled', value: { data: { seen: `Bearer tok-${tenant}` } } });
    }
  });
});
