// Client behaviour against real HTTP servers on 127.0.0.1: tokens, 401 repeat, retries, timeouts, errors.

import createClient from 'openapi-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { businessOperations } from '../business/index.js';
import {
  ApiError,
  ConfigurationError,
  createBusinessClient,
  createV1Client,
  NetworkError,
  orThrow,
  TimeoutError,
  TokenError,
  unwrap,
} from '../index.js';
import { v1Operations } from '../v1/index.js';

const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const USER_ID = '3c9f6a2e-1b7d-4f05-9e84-6a2d0c7b5e91';
const SECRET = 's3cr3t-client-password';
const credentials = { clientId: CLIENT_ID, clientSecret: SECRET };
const payout = { amount: 1500000, currency: 'COP', destinationId: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16' };

let servers: LocalServer[] = [];
async function serve(handler: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A server with a token endpoint that issues tok-1, tok-2, ...; `route` answers everything else. */
async function serviceWithTokens(
  route: (
    req: { url: string; method: string; auth: string | undefined; body: string },
    res: any,
    index: number,
  ) => void,
) {
  let issued = 0;
  const server = await serve((req, res, body, index) => {
    if (req.url === '/api/token' || req.url === '/api/v1/client/token')
      return json(res, 200, { accessToken: `tok-${++issued}` });
    route({ url: req.url ?? '', method: req.method ?? '', auth: req.headers.authorization, body }, res, index);
  });
  const tokenCalls = () => server.requests.filter((r) => r.url.endsWith('/token')).length;
  const apiCalls = () => server.requests.filter((r) => !r.url.endsWith('/token'));
  return { server, tokenCalls, apiCalls };
}

describe('tokens', () => {
  it('shares one token request among 25 concurrent calls on a cold cache', async () => {
    const { server, tokenCalls, apiCalls } = await serviceWithTokens((_req, res) => json(res, 200, []));
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    const results = await Promise.all(
      Array.from({ length: 25 }, () => api.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })),
    );
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(tokenCalls()).toBe(1);
    expect(apiCalls().map((r) => r.headers.authorization)).toEqual(Array(25).fill('Bearer tok-1'));
    expect(JSON.parse(server.requests.find((r) => r.url === '/api/token')!.body)).toEqual(credentials);
  });

  it('treats Business tokens as valid 5 minutes and renews them shortly before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { server, tokenCalls } = await serviceWithTokens((_req, res) => json(res, 200, []));
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    const call = () => orThrow(api.listBanks());
    const accounts = () => orThrow(api.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } }));
    await accounts();
    vi.advanceTimersByTime(260_000); // 4m20s: still fresh
    await accounts();
    expect(tokenCalls()).toBe(1);
    vi.advanceTimersByTime(15_000); // 4m35s: inside the renewal margin
    await accounts();
    expect(tokenCalls()).toBe(2);
    await call(); // the public bank directory never needs a token
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('renews at the JWT exp claim when the token carries one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const exp = Math.floor(Date.now() / 1000) + 60;
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.c2ln`;
    let grants = 0;
    const server = await serve((req, res) => {
      if (req.url !== '/api/v1/client/token') return json(res, 200, {});
      grants++;
      return json(res, 200, { token: jwt });
    });
    const v1 = createV1Client({ baseUrl: server.url, auth: { credentials } });
    await orThrow(v1.listAdminUsers());
    vi.advanceTimersByTime(50_000);
    await orThrow(v1.listAdminUsers());
    expect(grants).toBe(1);
    vi.advanceTimersByTime(5_000); // 55 s of 60: inside the 6 s margin
    await orThrow(v1.listAdminUsers());
    expect(grants).toBe(2);
  });

  it('on 401 drops the token, gets a new one and repeats the request once, body included', async () => {
    const { server, tokenCalls, apiCalls } = await serviceWithTokens((req, res) =>
      req.auth === 'Bearer tok-1'
        ? json(res, 401, {})
        : json(res, 201, { id: 'p1', status: 'PENDING', currency: 'COP', amount: 1500000, paymentMethod: 'ACH' }),
    );
    const v1 = createV1Client({ baseUrl: server.url, auth: { credentials } });
    const created = await orThrow(v1.createPayout({ params: { path: { user_id: USER_ID } }, body: payout }));
    expect(created.status).toBe('PENDING');
    expect(tokenCalls()).toBe(2);
    expect(apiCalls().map((r) => [r.headers.authorization, JSON.parse(r.body)])).toEqual([
      ['Bearer tok-1', payout],
      ['Bearer tok-2', payout],
    ]);
  });

  it('repeats after 401 only once, and never with a fixed token', async () => {
    const { server, tokenCalls, apiCalls } = await serviceWithTokens((_req, res) => json(res, 401, {}));
    const renewing = createV1Client({ baseUrl: server.url, auth: { credentials } });
    const first = await renewing.listAdminUsers();
    expect(first.response.status).toBe(401);
    expect([tokenCalls(), apiCalls().length]).toEqual([2, 2]);

    const fixed = createV1Client({ baseUrl: server.url, auth: { token: 'fixed-token' } });
    expect((await fixed.listAdminUsers()).response.status).toBe(401);
    expect([tokenCalls(), apiCalls().length]).toEqual([2, 3]);
  });

  it('accepts an async getToken with its own expiry', async () => {
    const server = await serve((req, res) => json(res, 200, { auth: req.headers.authorization }));
    let calls = 0;
    const api = createBusinessClient({
      baseUrl: server.url,
      auth: { getToken: async () => ({ token: `own-${++calls}`, expiresInSeconds: 3600 }) },
    });
    await Promise.all([orThrow(api.getClientInfo()), orThrow(api.getClientInfo()), orThrow(api.getClientInfo())]);
    expect(calls).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(Array(3).fill('Bearer own-1'));
  });
});

describe('retries', () => {
  it('never repeats a POST after a 500', async () => {
    const { server, apiCalls } = await serviceWithTokens((_req, res) => json(res, 500, {}));
    const v1 = createV1Client({ baseUrl: server.url, auth: { credentials } });
    const result = await v1.createPayout({ params: { path: { user_id: USER_ID } }, body: payout });
    expect(result.response.status).toBe(500);
    expect(apiCalls()).toHaveLength(1);
    void server;
  });

  it('never repeats a POST after a dropped connection, and names the operation', async () => {
    const { server, apiCalls } = await serviceWithTokens((_req, res) => void res.socket?.destroy());
    const v1 = createV1Client({ baseUrl: server.url, auth: { credentials } });
    const error = await v1
      .createOnRamp({
        params: { path: { user_id: USER_ID } },
        body: { amount: 1, destination: { type: 'EXTERNAL', externalWalletId: USER_ID } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({
      operationId: 'createOnRamp',
      method: 'POST',
      path: '/api/v1/admin/fiats/{user_id}/onramp',
      attempts: 1,
    });
    expect(apiCalls()).toHaveLength(1);
    void server;
  });

  it('retries a GET after a dropped connection and a 503, then succeeds', async () => {
    const server = await serve((_req, res, _body, index) =>
      index === 0 ? void res.socket?.destroy() : index === 1 ? json(res, 503, {}) : json(res, 200, []),
    );
    const api = createBusinessClient({ baseUrl: server.url, retry: { baseDelayMs: 5 } });
    expect(await orThrow(api.listBanks())).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a GET whose connection drops in the middle of the body, and names the failure of a POST', async () => {
    const halfBody = (_req: unknown, res: any) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('[{"id":"partial');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const server = await serve((req, res, _body, index) =>
      index === 0 || req.method === 'POST' ? halfBody(req, res) : json(res, 200, []),
    );
    const api = createBusinessClient({
      baseUrl: server.url,
      auth: { token: 'fixed-token' },
      retry: { baseDelayMs: 5 },
    });
    expect(await orThrow(api.listBanks())).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const error = await api
      .createWalletTransfer({ params: { path: { clientId: CLIENT_ID, userId: USER_ID } }, body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ operationId: 'createWalletTransfer', attempts: 1 });
    expect(server.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After says before repeating a GET', async () => {
    const server = await serve((_req, res, _body, index) =>
      index === 0 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, []),
    );
    const api = createBusinessClient({ baseUrl: server.url });
    const started = performance.now();
    await orThrow(api.listBanks());
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('returns the 503 instead of waiting for a Retry-After beyond maxRetryAfterMs, and stops after the attempt limit', async () => {
    const server = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '120' }));
    const api = createBusinessClient({ baseUrl: server.url });
    expect((await api.listBanks()).response.status).toBe(503);
    expect(server.requests).toHaveLength(1);

    const busy = await serve((_req, res) => json(res, 502, {}));
    const limited = createBusinessClient({ baseUrl: busy.url, retry: { attempts: 4, baseDelayMs: 1 } });
    expect((await limited.listBanks()).response.status).toBe(502);
    expect(busy.requests).toHaveLength(4);
  });
});

describe('timeouts and cancellation', () => {
  it('gives up after timeoutMs with a TimeoutError naming the operation', async () => {
    const server = await serve(() => {}); // never answers
    const api = createBusinessClient({ baseUrl: server.url, timeoutMs: 150, retry: false });
    const started = performance.now();
    const error = await api.listBanks().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ operationId: 'listBanks', timeoutMs: 150 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('honours a per-call timeoutMs and the caller AbortSignal without retrying', async () => {
    const server = await serve(() => {});
    const api = createBusinessClient({ baseUrl: server.url });
    await expect(api.listBanks({ timeoutMs: 100 })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const pending = api.listBanks({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
    expect(server.requests).toHaveLength(2);
  });
});

describe('errors', () => {
  it('unwrap throws an ApiError with operationId, method, path template, status and parsed body, also for path-based calls', async () => {
    const server = await serve((_req, res) => json(res, 404, { reason: 'no such webhook' }));
    const api = createBusinessClient({ baseUrl: server.url, auth: { token: 'fixed-token' } });
    const result = await api.DELETE('/api/webhooks/{clientId}/{webhook_id}', {
      params: { path: { clientId: CLIENT_ID, webhook_id: USER_ID } },
    });
    expect(() => unwrap(result)).toThrow(ApiError);
    try {
      unwrap(result);
    } catch (error) {
      expect(error).toMatchObject({
        operationId: 'deleteWebhook',
        method: 'DELETE',
        path: '/api/webhooks/{clientId}/{webhook_id}',
        status: 404,
        body: { reason: 'no such webhook' },
      });
      expect(String(error)).toBe(
        'ApiError: deleteWebhook (DELETE /api/webhooks/{clientId}/{webhook_id}) failed with HTTP 404',
      );
    }
  });

  it('refuses plain http to a non-loopback host unless the caller opts in', () => {
    expect(() => createBusinessClient({ baseUrl: 'http://10.1.2.3:8080' })).toThrow(ConfigurationError);
    expect(() => createBusinessClient({ baseUrl: 'http://10.1.2.3:8080', allowInsecureHttp: true })).not.toThrow();
    expect(() => createBusinessClient({ baseUrl: 'https://api.example.co' })).not.toThrow();
    expect(() => createBusinessClient({ baseUrl: 'http://localhost:4010' })).not.toThrow();
    expect(() => createBusinessClient({ baseUrl: 'http://[::1]:4010' })).not.toThrow();
    expect(() => createBusinessClient({ baseUrl: '' })).toThrow('`baseUrl` is required');
    expect(() => createBusinessClient({ baseUrl: 'https://user:pw@api.example.co' })).toThrow(
      'must not carry credentials',
    );
  });

  it('keeps tokens and credentials out of errors, their JSON and the log', async () => {
    const lines: string[] = [];
    const logger = { warn: (line: string) => lines.push(line) };
    // The token endpoint refuses and echoes the credentials back; the API echoes the Authorization header.
    const server = await serve((req, res, body) =>
      req.url === '/api/token' ? json(res, 400, { echo: body }) : json(res, 401, { echo: req.headers.authorization }),
    );
    const withCredentials = createBusinessClient({ baseUrl: server.url, auth: { credentials }, logger });
    const tokenError = await withCredentials.getClientInfo().catch((e: unknown) => e);
    expect(tokenError).toBeInstanceOf(TokenError);

    const withToken = createBusinessClient({ baseUrl: server.url, auth: { getToken: () => 'tok-SECRET-123' }, logger });
    const refused = await withToken.getClientInfo();
    const apiError = (() => {
      try {
        return unwrap(refused);
      } catch (e) {
        return e;
      }
    })();
    expect(apiError).toBeInstanceOf(ApiError);
    for (const error of [tokenError, apiError] as Error[]) {
      for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('tok-SECRET-123');
      }
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/SECRET|s3cr3t/);
    expect(JSON.stringify(withToken)).not.toContain('tok-SECRET-123');
  });

  it('reports a token answer it cannot read, saying how to fix it', async () => {
    const server = await serve((_req, res) => json(res, 200, { bearer: 'x' }));
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    await expect(api.getClientInfo()).rejects.toThrow(/pass `readToken`/);
    const custom = createBusinessClient({
      baseUrl: server.url,
      auth: { credentials, readToken: (b) => (b as { bearer: string }).bearer },
    });
    expect((await custom.getClientInfo()).response.status).toBe(200);
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer x');
  });
});

describe('the token call', () => {
  it('names the status of a refused or redirected token call, and the token endpoint never sees middleware', async () => {
    let answer = 307;
    const server = await serve((_req, res) =>
      answer === 307
        ? void res.writeHead(307, { location: 'https://elsewhere.example/token' }).end()
        : json(res, answer, { message: 'no' }),
    );
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    const seen: string[] = [];
    api.use({ onRequest: ({ request }) => void seen.push(new URL(request.url).pathname) });
    const redirected = await api.getClientInfo().catch((e: unknown) => e);
    expect(redirected).toMatchObject({ name: 'TokenError', status: 307, message: expect.stringMatching(/redirect/) });
    answer = 401;
    await expect(api.getClientInfo()).rejects.toMatchObject({ name: 'TokenError', status: 401 });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/token', '/api/token']);
    expect(seen).toEqual([]);
  });
});

describe('middleware', () => {
  // openapi-fetch lets a caller add middleware (`use`, or `middleware` in one call's init). The client's
  // token, timeout and error naming must hold whatever the middleware does, and under concurrent calls.
  const accountsOf = (api: ReturnType<typeof createBusinessClient>, init: Record<string, unknown> = {}) =>
    api.listBankAccounts({ params: { path: { clientId: CLIENT_ID } }, ...init });

  it('sends the token through a middleware that awaits, and one that replaces the Request', async () => {
    const { server, apiCalls } = await serviceWithTokens((req, res) => json(res, 200, [{ seen: req.auth }]));
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    api.use({
      onRequest: async ({ request }) => {
        await new Promise((r) => setTimeout(r, 5));
        return request;
      },
    });
    api.use({ onRequest: ({ request }) => new Request(request, { headers: { 'x-trace': 'abc' } }) });
    const results = await Promise.all(Array.from({ length: 5 }, () => orThrow(accountsOf(api))));
    expect(results).toEqual(Array(5).fill([{ seen: 'Bearer tok-1' }]));
    expect(apiCalls().map((r) => r.headers['x-trace'])).toEqual(Array(5).fill('abc'));
  });

  it('gives fetch the URL and init (fetch makes the one Request) until middleware is added, then the Request it saw', async () => {
    const sent: { input: unknown; init: RequestInit | undefined }[] = [];
    const stub = (async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ input, init });
      return new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': '2' },
      });
    }) as typeof fetch;
    const api = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: 'tok' } });
    await orThrow(accountsOf(api));
    api.use({ onRequest: ({ request }) => new Request(request, { headers: { 'x-trace': 'abc' } }) });
    await orThrow(accountsOf(api));
    const [plain, seen] = sent;
    expect(plain!.input).toBe(`https://api.example.co/api/accounts/${CLIENT_ID}`);
    expect(new Headers(plain!.init!.headers).get('authorization')).toBe('Bearer tok');
    expect(plain!.init).toMatchObject({ method: 'GET', redirect: 'manual' });
    expect(plain!.init!.signal).toBeInstanceOf(AbortSignal);
    expect(seen!.input).toBeInstanceOf(Request);
    const request = seen!.input as Request;
    expect([request.headers.get('x-trace'), request.headers.get('authorization')]).toEqual(['abc', 'Bearer tok']);
    expect(seen!.init).toMatchObject({ redirect: 'manual' });
  });

  it('keeps each call its own context when middleware interleaves calls, and names a failure after its call', async () => {
    const { server } = await serviceWithTokens((req, res) =>
      req.url.includes('missing') ? json(res, 404, { message: 'no such client' }) : json(res, 200, []),
    );
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
    const delays = [20, 1, 10, 5];
    const slow = {
      onRequest: async ({ request }: { request: Request }) => {
        await new Promise((r) => setTimeout(r, delays.shift() ?? 1));
        return request;
      },
    };
    const calls = [
      accountsOf(api, { middleware: [slow] }),
      api.listBankAccounts({ params: { path: { clientId: 'missing' } }, middleware: [slow] }),
      accountsOf(api, { middleware: [slow] }),
      api.listBankAccounts({ params: { path: { clientId: 'missing' } }, middleware: [slow] }),
    ];
    const settled = await Promise.allSettled(calls.map((c) => orThrow(c)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    for (const s of settled.filter((s) => s.status === 'rejected')) {
      const error = (s as PromiseRejectedResult).reason as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.operationId).toBe('listBankAccounts');
      expect(error.url).toBe(`${server.url}/api/accounts/missing`);
    }
  });

  it('keeps a call that started before `use` whole: its token, and its deadline over the new middleware', {
    timeout: 5_000,
  }, async () => {
    const { server } = await serviceWithTokens((req, res) => json(res, 200, [{ seen: req.auth }]));
    const client = () => createBusinessClient({ baseUrl: server.url, auth: { credentials }, timeoutMs: 300 });
    // Each call is still waiting for its client's first token when the middleware is added.
    const replacing = client();
    const first = orThrow(accountsOf(replacing));
    replacing.use({ onRequest: ({ request }) => new Request(request, { headers: { 'x-trace': 'abc' } }) });
    await expect(first).resolves.toEqual([{ seen: 'Bearer tok-1' }]);
    const holding = client();
    const second = orThrow(accountsOf(holding));
    holding.use({ onRequest: () => new Promise<never>(() => {}) });
    await expect(second).rejects.toBeInstanceOf(TimeoutError);
  });

  it('bounds a call whose middleware never lets it go with the client timeout', { timeout: 5_000 }, async () => {
    const { server, apiCalls } = await serviceWithTokens((_req, res) => json(res, 200, []));
    const api = createBusinessClient({ baseUrl: server.url, auth: { credentials }, timeoutMs: 300 });
    api.use({
      onResponse: async ({ response }) => {
        await new Promise((r) => setTimeout(r, 10));
        return response;
      },
    });
    await expect(
      orThrow(accountsOf(api, { timeoutMs: 200, middleware: [{ onRequest: () => new Promise<never>(() => {}) }] })),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(apiCalls()).toHaveLength(0);
    await expect(orThrow(accountsOf(api))).resolves.toEqual([]);
  });
});

describe('path parameters', () => {
  // The client builds each path itself instead of through openapi-fetch's serializer: the URL must be the one
  // openapi-fetch builds, for every operation, whatever the values.
  const urlsSent = (urls: string[]) =>
    (async (input: RequestInfo | URL) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': '2' },
      });
    }) as typeof fetch;
  const values = [
    '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13',
    'a b',
    'ñandú',
    'x/y',
    '?#%&=',
    42,
    "A-Z_~.!*'()",
    '{userId}',
  ];

  it.each([
    ['business', createBusinessClient, businessOperations],
    ['v1', createV1Client, v1Operations],
  ] as const)(
    'are encoded as openapi-fetch encodes them, for every %s operation',
    async (_family, create, operations) => {
      const baseUrl = 'https://api.example.co/base';
      const ours: string[] = [];
      const theirs: string[] = [];
      const api = create({ baseUrl, fetch: urlsSent(ours), auth: { token: 'tok' }, retry: false }) as unknown as Record<
        string,
        (init: unknown) => Promise<unknown>
      >;
      const bare = createClient({ baseUrl, fetch: urlsSent(theirs) });
      let checked = 0;
      for (const [operationId, spec] of Object.entries(operations)) {
        const names = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        if (!names.length) continue;
        const body = spec.method === 'get' ? {} : { body: {} };
        for (let i = 0; i < values.length; i++) {
          const path = Object.fromEntries(names.map((name, j) => [name, values[(i + j) % values.length]]));
          await api[operationId]!({ params: { path }, ...body });
          await bare.request(spec.method, spec.path as never, { params: { path }, ...body } as never);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(values.length);
      expect(ours).toEqual(theirs);
    },
  );

  it('leaves an array or object value, and another baseUrl for one call, as openapi-fetch has them', async () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const api = createBusinessClient({
      baseUrl: 'https://api.example.co',
      fetch: urlsSent(ours),
      auth: { token: 'tok' },
    });
    const bare = createClient({ baseUrl: 'https://api.example.co', fetch: urlsSent(theirs) });
    for (const init of [
      { params: { path: { clientId: ['a', 'b'] } } },
      { params: { path: { clientId: { x: 1 } } } },
      { baseUrl: 'https://other.example.co/v2', params: { path: { clientId: 'c d' } } },
    ]) {
      await api.GET('/api/accounts/{clientId}', init as never);
      await bare.GET('/api/accounts/{clientId}' as never, init as never);
    }
    expect(ours).toEqual(theirs);
    expect(ours).toEqual([
      'https://api.example.co/api/accounts/a,b',
      'https://api.example.co/api/accounts/x,1',
      'https://other.example.co/v2/api/accounts/c%20d',
    ]);
  });
});
