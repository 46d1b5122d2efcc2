// Both token calls answer signed JWTs (the source: "a JWT access token ... valid 5 minutes"; `bearerFormat:
// JWT`), and the typed clients renew them from the `exp` claim against the sandbox. The sandbox runs
// in this process, so faking Date moves the client's clock and the sandbox's together.
import { createHmac } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBusinessClient, createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { sandboxToken } from '../../testing/sandbox-users.js';

const sandbox = useSandbox();
let tenant: Awaited<ReturnType<ReturnType<typeof createSandboxClient>['createTenant']>>['data'] & {};

beforeAll(async () => {
  tenant = await orThrow(createSandboxClient({ baseUrl: sandbox.url }).createTenant({ body: { name: 'Tokens' } }));
});
afterEach(() => vi.useRealTimers());

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('the clients renew a token from its exp claim, before the sandbox refuses it', () => {
  /** A client whose token call is read without expires_in (as a deployment might answer), so only exp says when it ends. */
  function counted(family: 'business' | 'v1') {
    const seen = { tokenCalls: 0, refused: 0 };
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await globalThis.fetch(request);
      if (request.url.endsWith('/token')) seen.tokenCalls++;
      else if (response.status === 401) seen.refused++;
      return response;
    };
    const options = { baseUrl: sandbox.url, fetch, retry: false as const };
    const readToken = (body: unknown) => (body as { access_token: string }).access_token;
    const client =
      family === 'business'
        ? createBusinessClient({ ...options, auth: { credentials: tenant.businessCredentials, readToken } })
        : createV1Client({ ...options, auth: { credentials: tenant.v1Credentials, readToken } });
    return { client, seen };
  }

  it('Business: a token 4 min 35 s old is renewed (10% of its 5 minutes before exp); none is ever refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { client, seen } = counted('business');
    const call = async () =>
      expect((await (client as ReturnType<typeof createBusinessClient>).getClientInfo()).response.status).toBe(200);
    await call();
    vi.setSystemTime(Date.now() + 260_000); // 4 min 20 s: still inside the token's life and margin
    await call();
    expect(seen).toEqual({ tokenCalls: 1, refused: 0 });
    vi.setSystemTime(Date.now() + 15_000); // 4 min 35 s: within 30 s of exp
    await call();
    expect(seen).toEqual({ tokenCalls: 2, refused: 0 });
  });

  it('v1: a token is renewed from exp near the end of its 24 hours; none is ever refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { client, seen } = counted('v1');
    const call = async () =>
      expect((await (client as ReturnType<typeof createV1Client>).listAdminUsers()).response.status).toBe(200);
    await call();
    vi.setSystemTime(Date.now() + 86_400_000 - 60_000);
    await call();
    expect(seen).toEqual({ tokenCalls: 1, refused: 0 });
    vi.setSystemTime(Date.now() + 45_000); // 15 s before exp
    await call();
    expect(seen).toEqual({ tokenCalls: 2, refused: 0 });
  });
});

// Last: advanceClock moves sandbox time away from the real clock for the rest of this file.
describe('the token calls answer signed JWTs', () => {
  it("Business and v1: HS256, signed with the sandbox's key, iat and exp in sandbox time, sub naming the client", async () => {
    for (const [family, credentials, lifetime] of [
      ['business', tenant.businessCredentials, 300],
      ['v1', tenant.v1Credentials, 86_400],
    ] as const) {
      const before = Math.floor(sandbox.clock.now().getTime() / 1000);
      const token = await sandboxToken(sandbox.url, family, credentials);
      const parts = token.split('.');
      expect(parts, `${family}: a JWT has three parts`).toHaveLength(3);
      expect(decode(parts[0]!)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decode(parts[1]!);
      expect(claims).toMatchObject({ sub: tenant.clientId, aud: family, iss: 'ramp-api-sandbox' });
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(Number(claims.exp) - Number(claims.iat), `${family} lifetime`).toBe(lifetime);
      // The signature is the sandbox's HMAC over header.payload with the key kept in its database.
      const [key] = await sandbox.db.query<{ secret: string }>('select secret from sandbox_signing_key');
      expect(parts[2]).toBe(createHmac('sha256', key!.secret).update(`${parts[0]}.${parts[1]}`).digest('base64url'));
    }
  });

  it('a Business token is refused 5 minutes after issue in sandbox time (advanceClock), not before', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const token = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const info = () =>
      fetch(`${sandbox.url}/api/infoClient`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    await orThrow(control.advanceClock({ body: { seconds: 290 } }));
    expect(await info()).toBe(200);
    await orThrow(control.advanceClock({ body: { seconds: 11 } }));
    expect(await info()).toBe(401);
  });

  it('a forged token (another key, the same claims) is refused', async () => {
    const token = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${createHmac('sha256', 'not-the-key').update(`${header}.${payload}`).digest('base64url')}`;
    expect(
      (await fetch(`${sandbox.url}/api/infoClient`, { headers: { authorization: `Bearer ${forged}` } })).status,
    ).toBe(401);
  });
});
