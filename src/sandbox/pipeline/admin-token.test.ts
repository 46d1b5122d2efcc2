// The control API's admin token as the sandbox client meets it: sent as a bearer token and never shown in an
// error, and checked by the sandbox (without one, no token reaches every tenant and a tenant's token only its own).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { ApiError, ConfigurationError } from '../../client/core/errors.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { sandboxInTest } from '../../testing/sandbox-fixture.js';
import { registerExampleUser } from '../../testing/sandbox-users.js';

const TOKEN = `adm_${randomUUID()}`;

describe('createSandboxClient with an admin token', () => {
  it('sends it as a bearer token, and never shows it in an error, even when the server echoes it', async () => {
    const server = createServer((req, res) => {
      const body = JSON.stringify({ error: 'unauthorized', message: `You sent ${req.headers.authorization}` });
      res.writeHead(401, { 'content-type': 'application/json', 'x-echo': String(req.headers.authorization) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createSandboxClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        adminToken: TOKEN,
      });
      const error = await orThrow(client.advanceClock({ body: { seconds: 1 } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const shown = [
        String(error),
        (error as Error).stack,
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        JSON.stringify((error as ApiError).headers),
      ].join('\n');
      expect(shown).toContain('You sent Bearer [REDACTED]');
      expect(shown).not.toContain(TOKEN);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('against a sandbox with an admin token: without it 401, with it the call is made, with a wrong one 401 that repeats nothing', async () => {
    const sandbox = await sandboxInTest({ adminToken: TOKEN });
    const anonymous = await createSandboxClient({ baseUrl: sandbox.url }).advanceClock({ body: { seconds: 1 } });
    expect(anonymous.response.status).toBe(401);
    expect(
      (
        await orThrow(
          createSandboxClient({ baseUrl: sandbox.url, adminToken: TOKEN }).advanceClock({ body: { seconds: 1 } }),
        )
      ).offsetSeconds,
    ).toBe(1);
    const wrong = `${TOKEN}-but-not-quite`;
    const refused = await createSandboxClient({ baseUrl: sandbox.url, adminToken: wrong }).resetSandbox();
    expect(refused.response.status).toBe(401);
    expect(JSON.stringify(refused.error)).not.toContain(wrong.slice(4));
    expect(() => createSandboxClient({ baseUrl: sandbox.url, adminToken: '' })).toThrow(ConfigurationError);
  }, 60_000);

  it('without an admin token: no token reaches every tenant, a tenant token only its own, any other token is refused', async () => {
    const sandbox = await sandboxInTest();
    const open = createSandboxClient({ baseUrl: sandbox.url });
    const a = await orThrow(open.createTenant({ body: { name: 'A' } }));
    const b = await orThrow(open.createTenant({ body: { name: 'B' } }));
    const userId = await registerExampleUser(sandbox.url, a);
    const grant = await fetch(`${sandbox.url}/api/v1/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(b.v1Credentials),
    });
    const asB = createSandboxClient({
      baseUrl: sandbox.url,
      adminToken: ((await grant.json()) as { access_token: string }).access_token,
    });
    expect((await asB.approveUser({ params: { path: { userId } } })).response.status).toBe(404);
    expect((await asB.resetSandbox()).response.status).toBe(401);
    expect(
      (
        await createSandboxClient({ baseUrl: sandbox.url, adminToken: TOKEN }).approveUser({
          params: { path: { userId } },
        })
      ).response.status,
    ).toBe(401);
    expect((await orThrow(open.approveUser({ params: { path: { userId } } }))).status).toBe('approved');
  }, 60_000);
});
