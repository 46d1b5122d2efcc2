// The client's promises under hostile servers and careless callers, each against a real loopback server:
// nothing goes where the caller did not send it, a POST reaches the network at most once, answers are bounded
// after decompression, timeoutMs bounds the whole call, path parameters cannot move a call, secrets never show.
import { getMaxListeners } from 'node:events';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, type Handler, json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import {
  ApiError,
  ConfigurationError,
  createBusinessClient,
  createV1Client,
  NetworkError,
  ParameterError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
  TokenError,
  unwrap,
} from '../index.js';

const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const USER_ID = '3c9f6a2e-1b7d-4f05-9e84-6a2d0c7b5e91';
const credentials = { clientId: CLIENT_ID, clientSecret: 'cr3d-s3cr3t-value' };
const payout = { amount: 1500000, currency: 'COP' as const, destinationId: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16' };
const PAYOUT = {
  id: 'c2a9e7f1-5b3d-4e68-8a14-9f0d6b2c3e75',
  status: 'PENDING',
  currency: 'COP',
  amount: 1500000,
  paymentMethod: 'ACH',
};

let servers: LocalServer[] = [];
async function serve(handler: Handler): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => error,
  );
const elapsed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  const outcome = await caught(run());
  return { outcome, ms: performance.now() - started };
};
const createPayout = (v1: ReturnType<typeof createV1Client>) =>
  v1.createPayout({ params: { path: { user_id: USER_ID } }, body: payout });
/** Every way an error can be shown: message, String, stack, JSON and util.inspect (cause chain included). */
const renderings = (error: unknown) => {
  const e = error as Error;
  return [e.message, String(e), e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })];
};

describe('redirects: nothing goes to an origin the caller did not choose', () => {
  it('does not follow the token call to another origin, and sends it nothing', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, { accessToken: 'foreign-token' }));
    const service = await serve((req, res) =>
      req.url === '/api/token'
        ? void res.writeHead(307, { location: `${elsewhere.url}/api/token` }).end()
        : json(res, 200, []),
    );
    const api = createBusinessClient({ baseUrl: service.url, auth: { credentials } });
    const error = await caught(api.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } }));
    expect(error).toBeInstanceOf(TokenError);
    expect((error as Error).message).toMatch(/redirect/i);
    expect(elsewhere.requests).toHaveLength(0);
    expect(service.requests.map((r) => r.url)).toEqual(['/api/token']);
  });

  it.each([307, 308])(
    'sends a POST once when answered %i to its own address, and returns a RedirectError',
    async (status) => {
      const service = await serve((req, res) => void res.writeHead(status, { location: req.url }).end());
      const v1 = createV1Client({ baseUrl: service.url, auth: { token: 'fixed-token' } });
      const error = await caught(createPayout(v1));
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({ operationId: 'createPayout', status });
      expect(service.requests).toHaveLength(1);
    },
  );

  it('never re-sends a payout body or a DELETE to another origin', async () => {
    const elsewhere = await serve((_req, res) => json(res, 201, PAYOUT));
    const service = await serve(
      (req, res) => void res.writeHead(307, { location: `${elsewhere.url}${req.url}` }).end(),
    );
    const v1 = createV1Client({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    expect(await caught(createPayout(v1))).toBeInstanceOf(RedirectError);
    const business = createBusinessClient({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    expect(
      await caught(business.deleteWebhook({ params: { path: { clientId: CLIENT_ID, webhook_id: USER_ID } } })),
    ).toBeInstanceOf(RedirectError);
    expect(elsewhere.requests).toHaveLength(0);
    expect(service.requests).toHaveLength(2);
  });

  it('does not follow a GET redirect either: the 3xx is a RedirectError naming where it pointed', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, []));
    const service = await serve((_req, res) => void res.writeHead(302, { location: `${elsewhere.url}/moved` }).end());
    const api = createBusinessClient({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    const error = await caught(api.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } }));
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toContain(`${elsewhere.url}/moved`);
    expect([service.requests.length, elsewhere.requests.length]).toEqual([1, 0]);
  });
});

describe('answers are bounded after decompression', () => {
  const LIMIT = 256 * 1024;
  // 16 MiB of JSON that gzips to about 16 KB: the declared length is far below the limit.
  const bomb = gzipSync(Buffer.from(`[${'"x",'.repeat((16 * 1024 * 1024) / 4)}"x"]`));
  const sendBomb = (_req: unknown, res: import('node:http').ServerResponse) =>
    void res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      })
      .end(bomb);

  it('refuses a gzip answer that inflates past maxResponseBytes on a POST, a GET without retries and the last GET attempt', async () => {
    expect(bomb.length).toBeLessThan(LIMIT);
    const service = await serve(sendBomb);
    const options = { baseUrl: service.url, auth: { token: 'fixed-token' }, maxResponseBytes: LIMIT };
    expect(await caught(createPayout(createV1Client(options)))).toBeInstanceOf(ResponseTooLargeError);
    const noRetry = createBusinessClient({ ...options, retry: false });
    expect(await caught(noRetry.listBanks())).toBeInstanceOf(ResponseTooLargeError);
    const oneAttempt = createBusinessClient({ ...options, retry: { attempts: 1 } });
    expect(await caught(oneAttempt.listBanks())).toBeInstanceOf(ResponseTooLargeError);
    expect(service.requests).toHaveLength(3);
  });
});

describe('timeoutMs bounds the whole call', () => {
  it('does not start a Retry-After wait that ends past the bound: the 503 comes back at once', async () => {
    const service = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '5' }));
    const api = createBusinessClient({ baseUrl: service.url, timeoutMs: 400 });
    const { outcome, ms } = await elapsed(() => api.listBanks());
    expect((outcome as { value: { response: Response } }).value.response.status).toBe(503);
    expect(ms).toBeLessThan(400);
    expect(service.requests).toHaveLength(1);
  });

  it('ends a call whose attempts each fail late within the bound, not after every attempt', async () => {
    const service = await serve((_req, res) => void setTimeout(() => res.socket?.destroy(), 250));
    const api = createBusinessClient({ baseUrl: service.url, timeoutMs: 400, retry: { baseDelayMs: 1 } });
    const { outcome, ms } = await elapsed(() => api.listBanks());
    expect(outcome).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(400 + 150);
  });

  it('ends the call within a few milliseconds of the caller abort, even while waiting out a Retry-After', async () => {
    const service = await serve((_req, res) => json(res, 429, {}, { 'retry-after': '3' }));
    const api = createBusinessClient({ baseUrl: service.url });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 150);
    const { outcome, ms } = await elapsed(() => api.listBanks({ signal: controller.signal }));
    expect((outcome as Error).message).toBe('caller gave up');
    expect(ms).toBeLessThan(150 + 100);
  });

  it('bounds a token source that never answers, and the next call asks it again', async () => {
    const service = await serve((req, res) => json(res, 200, { auth: req.headers.authorization }));
    let asked = 0;
    const api = createBusinessClient({
      baseUrl: service.url,
      // Long enough for the second call on a busy machine (a worker's other files share its event loop).
      timeoutMs: 1000,
      auth: { getToken: () => (++asked === 1 ? new Promise<string>(() => {}) : 'second-token') },
    });
    const first = await elapsed(() => api.getClientInfo());
    expect(first.outcome).toBeInstanceOf(TimeoutError);
    expect(first.ms).toBeLessThan(1000 + 300);
    expect(service.requests).toHaveLength(0);
    const second = await api.getClientInfo();
    expect(second.data).toEqual({ auth: 'Bearer second-token' });
    expect(asked).toBe(2);
  });

  it('lets the caller abort a call that is waiting for a token', async () => {
    const api = createBusinessClient({
      baseUrl: 'http://127.0.0.1:9',
      auth: { getToken: () => new Promise<string>(() => {}) },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop waiting')), 50);
    const { outcome, ms } = await elapsed(() => api.getClientInfo({ signal: controller.signal }));
    expect((outcome as Error).message).toBe('stop waiting');
    expect(ms).toBeLessThan(50 + 100);
  });
});

describe('path parameters cannot change the path', () => {
  it.each(['..', '.', ''])('refuses %j before anything is sent', async (value) => {
    const service = await serve((_req, res) => json(res, 201, PAYOUT));
    const v1 = createV1Client({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    const business = createBusinessClient({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    const attempts = [
      v1.createPayout({ params: { path: { user_id: value } }, body: payout }),
      v1.POST('/api/v1/admin/fiats/{user_id}/payout', { params: { path: { user_id: value } }, body: payout }),
      business.deleteWebhook({ params: { path: { clientId: value, webhook_id: 'infoClient' } } }),
    ];
    for (const attempt of attempts) {
      const error = await caught(attempt);
      expect(error).toBeInstanceOf(ParameterError);
      expect((error as Error).message).toMatch(/path parameter/);
    }
    expect(service.requests).toHaveLength(0);
  });
});

describe('secrets never appear, in any form the server echoes', () => {
  const TOKEN = 'tok/SECRET+9f8e7d6c5b4a=';
  const echoes: Record<string, (token: string) => unknown> = {
    'as a JSON key': (token) => ({ [token]: true }),
    'URL-encoded': (token) => ({ seen: `https://x.test/?t=${encodeURIComponent(token)}` }),
    'base64 of the header': (token) => ({ seen: Buffer.from(`Bearer ${token}`).toString('base64') }),
    'base64url inside a longer text': (token) => ({
      seen: Buffer.from(`{"authorization":"Bearer ${token}"}`).toString('base64url'),
    }),
  };

  it.each(Object.keys(echoes))(
    'redacts a token echoed %s from the error, its JSON, inspect and headers',
    async (how) => {
      const service = await serve((req, res) => {
        const token = (req.headers.authorization ?? '').slice('Bearer '.length);
        json(res, 401, echoes[how]!(token), { 'x-echo': encodeURIComponent(token) });
      });
      const api = createBusinessClient({ baseUrl: service.url, auth: { token: TOKEN } });
      const error = await caught(api.getClientInfo().then(unwrap));
      expect(error).toBeInstanceOf(ApiError);
      for (const text of renderings(error)) {
        for (const form of [TOKEN, encodeURIComponent(TOKEN), 'SECRET']) expect(text).not.toContain(form);
        // Whatever looks like base64 in the error must not decode to the token either.
        for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
          for (const encoding of ['base64', 'base64url'] as const)
            expect(Buffer.from(run, encoding).toString('latin1')).not.toContain('SECRET');
        }
      }
    },
  );

  it('names a token that cannot go into a header without showing it', async () => {
    const service = await serve((_req, res) => json(res, 200, {}));
    const api = createBusinessClient({ baseUrl: service.url, auth: { getToken: () => 'line-one-SECRET\nline-two' } });
    const error = await caught(api.getClientInfo());
    expect(error).toBeInstanceOf(TokenError);
    for (const text of renderings(error)) expect(text).not.toContain('SECRET');
    expect(service.requests).toHaveLength(0);
  });

  it('leaves text alone that only contains the letters of a one-character token', async () => {
    const service = await serve((_req, res) =>
      json(res, 422, { link: 'https://docs.example.co/errors#amount', token: 't' }),
    );
    const api = createBusinessClient({ baseUrl: service.url, auth: { token: 't' } });
    const error = (await caught(api.getClientInfo().then(unwrap))) as ApiError<{ link: string; token: string }>;
    expect(error.body.link).toBe('https://docs.example.co/errors#amount');
    expect(error.body.token).toBe('[REDACTED]');
  });
});

describe('configuration mistakes are named at once', () => {
  it('names a getToken that returns null', async () => {
    const api = createBusinessClient({
      baseUrl: 'http://127.0.0.1:9',
      auth: { getToken: () => null as unknown as string },
    });
    expect(await caught(api.getClientInfo())).toBeInstanceOf(TokenError);
  });

  it.each(['https://api.example.co/base?x=1', 'https://api.example.co/#frag', 'https://api.example.co?'])(
    'refuses baseUrl %s',
    (baseUrl) => {
      expect(() => createBusinessClient({ baseUrl })).toThrow(ConfigurationError);
    },
  );

  it('refuses timeouts a timer cannot hold, on the client and on a call', async () => {
    expect(() => createBusinessClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2 ** 31 })).toThrow(
      ConfigurationError,
    );
    expect(() => createBusinessClient({ baseUrl: 'http://127.0.0.1:9', retry: { maxDelayMs: 2 ** 31 } })).toThrow(
      ConfigurationError,
    );
    const api = createBusinessClient({ baseUrl: 'http://127.0.0.1:9' });
    expect(await caught(api.listBanks({ timeoutMs: 2 ** 31 }))).toBeInstanceOf(ConfigurationError);
    expect(await caught(api.listBanks({ timeoutMs: -5 }))).toBeInstanceOf(ConfigurationError);
  });
});

describe('errors say what a person needs to act', () => {
  it('ApiError carries the URL called and the response headers', async () => {
    const service = await serve((_req, res) =>
      json(res, 422, {}, { 'sl-violations': '[{"message":"amount must be > 0"}]' }),
    );
    const v1 = createV1Client({ baseUrl: service.url, auth: { token: 'fixed-token' } });
    const error = (await caught(createPayout(v1).then(unwrap))) as ApiError;
    expect(error.url).toBe(`${service.url}/api/v1/admin/fiats/${USER_ID}/payout`);
    expect(error.headers['sl-violations']).toContain('amount must be > 0');
  });

  it('a refused connection names the host and the error code', async () => {
    const port = await freePort();
    const api = createBusinessClient({ baseUrl: `http://127.0.0.1:${port}`, retry: false });
    const error = await caught(api.listBanks());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('a 401 on a client created without auth says that no auth was given', async () => {
    const service = await serve((_req, res) => json(res, 401, {}));
    const api = createBusinessClient({ baseUrl: service.url });
    const error = await caught(api.getClientInfo().then(unwrap));
    expect((error as Error).message).toMatch(/without `auth`/);
  });
});

describe('many calls at once', () => {
  it('1000 concurrent calls waiting on one token request print no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // The subject is the wait for the token: each call's fetch is a stub that, as undici does, leaves a listener
      // on the signal it is given, so a signal shared between the calls would still pass ten listeners.
      const stub = (async (_input: RequestInfo | URL, init?: RequestInit) => {
        init?.signal?.addEventListener('abort', () => {});
        return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
      const api = createBusinessClient({
        baseUrl: 'https://api.example.co',
        fetch: stub,
        auth: { getToken: () => gate.then(() => 'one') },
      });
      const calls = Array.from({ length: 1000 }, () => api.getClientInfo());
      setTimeout(release, 50); // all 1000 wait on the one token request meanwhile
      expect((await Promise.all(calls)).every((result) => result.response.ok)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a call allowed many attempts prints no MaxListenersExceededWarning, and Node can read its signal’s limit', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const seen: AbortSignal[] = [];
      // Not undici, which lifts the limit itself: each retry's wait adds a listener of the call's own.
      const stub = (async (_input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(init!.signal!);
        return new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
      const retry = { attempts: 15, baseDelayMs: 1, maxDelayMs: 1 };
      const api = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, retry });
      expect((await api.listBanks()).response.status).toBe(503);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toHaveLength(15);
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
      for (const signal of new Set(seen)) expect(getMaxListeners(signal)).toBeGreaterThan(10);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
