// The sandbox is safe to leave running while its developer browses other sites, tried over raw sockets with the
// Host, Origin and Sec-Fetch-* headers an attacker's page would make a browser send: a host name that is not the
// sandbox's own (DNS rebinding) is refused for every path; a request from another origin that changes state is
// refused for every operation, the body-less control operations included, unless that origin is trusted; links
// are made from the sandbox's own address, never from a request's Host; and every answer carries nosniff and a
// Content-Security-Policy fit for it.
import { createHash, randomUUID } from 'node:crypto';
import { listOperations } from 'ramp-api/lookup';
import { beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { v1Operations } from '../../client/generated/v1-meta.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { type RawAnswer, rawExchange } from '../../testing/raw-http.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { launchSandbox } from '../../testing/sandbox-process.js';
import { registerExampleUser, sandboxToken } from '../../testing/sandbox-users.js';
import { readBundleFile } from '../contract/document.js';
import { SANDBOX_FAMILIES, type Sandbox } from '../server.js';

/** The origin of the docs site a test trusts, and one it does not (a page on another local port). */
const TRUSTED = 'http://127.0.0.1:5999';
const HOSTILE = 'http://localhost:8000';
const PUBLIC_URL = 'https://sandbox.team.example';

// One sandbox for the tests of a sandbox on its own address: it trusts one origin, and takes one more host name, as
// behind a proxy (`behindProxy`, the same sandbox); another for those of a sandbox given a public URL.
const plain = useSandbox({ allowedOrigins: [TRUSTED], allowedHosts: ['proxy.test'] });
const behindProxy = plain;
const published = useSandbox({ publicUrl: PUBLIC_URL });
let port: string;

beforeAll(() => {
  port = new URL(plain.url).port;
});

const json = (answer: RawAnswer) =>
  JSON.parse(answer.body) as { error?: string; message?: string } & Record<string, any>;

async function tenantCount(sandbox: Sandbox): Promise<number> {
  const control = createSandboxClient({ baseUrl: sandbox.url });
  return (await orThrow(control.listTenants())).tenants.length;
}

describe('known hosts only', () => {
  it('refuses a request naming another host with 421 and one sentence naming --allowed-hosts, for any path', async () => {
    await orThrow(createSandboxClient({ baseUrl: plain.url }).createTenant({ body: { name: 'Kept' } }));
    const before = await tenantCount(plain);
    const host = `rebind.evil.example:${port}`;
    for (const [method, target] of [
      ['GET', '/sandbox/tenants'],
      ['GET', '/'],
      ['GET', '/sandbox/docs'],
      ['GET', '/sandbox/openapi.json'],
      ['GET', '/api/parameters/banks'],
      ['GET', '/no/such/path'],
      ['POST', '/sandbox/reset'],
      ['OPTIONS', '/sandbox/reset'],
    ] as const) {
      const answer = await rawExchange(plain.url, { method, target, headers: { host } });
      expect(answer.status, `${method} ${target}`).toBe(421);
      expect(json(answer).error).toBe('unknown_host');
      expect(json(answer).message).toMatch(/--allowed-hosts/);
      expect(json(answer).message).toMatch(/allowedHosts/);
    }
    expect(await tenantCount(plain)).toBe(before);
  });

  it('serves the names of its loopback address with its port, and no other port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      expect((await rawExchange(plain.url, { target: '/sandbox/tenants', headers: { host } })).status, host).toBe(200);
    }
    const other = `127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}`;
    expect((await rawExchange(plain.url, { target: '/sandbox/tenants', headers: { host: other } })).status).toBe(421);
    expect((await rawExchange(plain.url, { target: '/sandbox/tenants', headers: { host: '127.0.0.1' } })).status).toBe(
      421,
    );
  });

  it('serves a name given with allowedHosts (--allowed-hosts), and the public URL`s host', async () => {
    const proxied = await rawExchange(behindProxy.url, { target: '/sandbox/tenants', headers: { host: 'proxy.test' } });
    expect(proxied.status).toBe(200);
    const pub = await rawExchange(published.url, {
      target: '/sandbox/tenants',
      headers: { host: 'sandbox.team.example' },
    });
    expect(pub.status).toBe(200);
  });

  it('refuses an absolute-form target whose authority is not its own with 421, whatever the Host says', async () => {
    const before = await tenantCount(plain);
    for (const [method, target] of [
      ['POST', `http://other.example:${port}/sandbox/reset`],
      ['GET', `http://other.example:${port}/sandbox/tenants`],
      ['GET', `http://127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}/sandbox/tenants`],
      ['GET', 'http://[::1/sandbox/tenants'],
    ] as const) {
      const answer = await rawExchange(plain.url, { method, target, headers: { host: `127.0.0.1:${port}` } });
      expect(answer.status, `${method} ${target}`).toBe(421);
      expect(json(answer).error).toBe('unknown_host');
      expect(json(answer).message).toMatch(/--allowed-hosts/);
    }
    expect(await tenantCount(plain)).toBe(before);
    const own = await rawExchange(plain.url, { target: `http://localhost:${port}/sandbox/tenants` });
    expect(own.status).toBe(200);
  });
});

describe('the command line', () => {
  it('takes --allowed-hosts and --allowed-origins', async () => {
    const running = await launchSandbox([
      '--memory',
      '--allowed-hosts',
      'proxy.test,.team.test',
      '--allowed-origins',
      TRUSTED,
    ]);
    try {
      const status = async (headers: Record<string, string>, method = 'GET') =>
        (await rawExchange(running.url, { method, target: '/sandbox/tenants', headers, body: '' })).status;
      expect(await status({ host: 'proxy.test' })).toBe(200);
      expect(await status({ host: 'docs.team.test:8443' })).toBe(200);
      expect(await status({ host: 'evil.test' })).toBe(421);
      expect(await status({ origin: HOSTILE }, 'POST')).toBe(403);
      // Past the origin check, to the operation's own refusal of an empty body.
      expect(await status({ origin: TRUSTED }, 'POST')).toBe(400);
      expect(running.output()).toMatch(/other host names refused except proxy\.test, \.team\.test/);
    } finally {
      running.child.kill('SIGTERM');
      await running.exit;
    }
  }, 60_000);
});

describe('no cross-site writes', () => {
  const families = SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
  // Every operation that changes state, of the three families, derived from the bundles.
  const writes = families.flatMap(({ family, doc }) =>
    listOperations(doc)
      .filter((entry) => entry.method !== 'get')
      .map((entry) => ({ family, entry })),
  );

  it('refuses a write with no body from a page on another origin with 403 for every state-changing operation, changing nothing', async () => {
    expect(writes.length).toBeGreaterThan(30);
    const before = await tenantCount(plain);
    const wrong: string[] = [];
    for (const { entry } of writes) {
      const target = entry.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const answer = await rawExchange(plain.url, {
        method: entry.method.toUpperCase(),
        target,
        headers: {
          origin: HOSTILE,
          'sec-fetch-site': 'cross-site',
          'sec-fetch-mode': 'no-cors',
        },
      });
      if (answer.status !== 403 || json(answer).error !== 'cross_origin')
        wrong.push(`${entry.operationId} ${answer.status} ${answer.body.slice(0, 80)}`);
      else expect(json(answer).message).toMatch(/--allowed-origins/);
    }
    expect(wrong).toEqual([]);
    expect(await tenantCount(plain)).toBe(before);
  });

  it('refuses a write whose only sign is Sec-Fetch-Site cross-site or same-site, or whose Origin is "null"', async () => {
    const before = await tenantCount(plain);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' } as Record<string, string>,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' },
    ]) {
      const answer = await rawExchange(plain.url, { method: 'POST', target: '/sandbox/reset', headers, body: '' });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await tenantCount(plain)).toBe(before);
  });

  it('takes writes from its own pages, from tools that send no Origin and from a trusted origin, which gets CORS', async () => {
    const create = (headers: Record<string, string>) =>
      rawExchange(plain.url, {
        method: 'POST',
        target: '/sandbox/tenants',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'Allowed' }),
      });
    expect((await create({})).status).toBe(201);
    expect((await create({ origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await create({ origin: `http://localhost:${port}`, host: `localhost:${port}` })).status).toBe(201);
    expect((await create({ 'sec-fetch-site': 'none' })).status).toBe(201);
    const trusted = await create({ origin: TRUSTED, 'sec-fetch-site': 'same-site' });
    expect(trusted.status).toBe(201);
    expect(trusted.headers['access-control-allow-origin']).toBe(TRUSTED);
    expect(trusted.headers.vary).toMatch(/origin/i);
  });

  it('answers a CORS preflight for a trusted origin only', async () => {
    const preflight = (origin: string) =>
      rawExchange(plain.url, {
        method: 'OPTIONS',
        target: '/sandbox/tenants',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const trusted = await preflight(TRUSTED);
    expect(trusted.status).toBe(204);
    expect(trusted.headers['access-control-allow-origin']).toBe(TRUSTED);
    expect(trusted.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(trusted.headers['access-control-allow-headers']?.toLowerCase()).toMatch(/authorization/);
    const hostile = await preflight(HOSTILE);
    expect(hostile.status).toBe(403);
    expect(hostile.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the refusals documented', () => {
  it('documents 421 for every operation of the three families, and 403 for every one that changes state', () => {
    const missing: string[] = [];
    for (const family of SANDBOX_FAMILIES) {
      for (const entry of listOperations(readBundleFile(family))) {
        const responses = Object.keys(entry.operation.responses ?? {});
        if (!responses.includes('421')) missing.push(`${family} ${entry.operationId} 421`);
        if (entry.method !== 'get' && !responses.includes('403')) missing.push(`${family} ${entry.operationId} 403`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('links from configuration', () => {
  async function linksVia(sandbox: Sandbox, host: string): Promise<{ kyc: string; checkout: string }> {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Links' } }));
    const userId = await registerExampleUser(sandbox.url, tenant);
    await orThrow(control.approveUser({ params: { path: { userId } } }));
    const wallet = await orThrow(control.createExternalWallet({ body: { userId } }));
    const token = await sandboxToken(sandbox.url, 'v1', tenant.v1Credentials);
    const headers = {
      host,
      authorization: `Bearer ${token}`,
      'x-integration-register': tenant.integrationRegister,
      'content-type': 'application/json',
    };
    const kyc = await rawExchange(sandbox.url, {
      method: 'POST',
      target: v1Operations.generateKycUrl.path.replace('{user_id}', userId),
      headers,
      body: '',
    });
    expect(kyc.status, kyc.body).toBe(200);
    const onRamp = await rawExchange(sandbox.url, {
      method: 'POST',
      target: v1Operations.createOnRamp.path.replace('{user_id}', userId),
      headers,
      body: JSON.stringify({
        amount: 200_000,
        destination: { type: 'EXTERNAL', externalWalletId: wallet.externalWalletId },
      }),
    });
    expect(onRamp.status, onRamp.body).toBe(201);
    return { kyc: json(kyc).url, checkout: json(onRamp).depositInfo.depositInstructions.checkoutUrl };
  }

  it('makes KYC links and checkout addresses from the address the sandbox listens on, whatever Host a request names', async () => {
    const links = await linksVia(behindProxy, 'proxy.test');
    expect(links.kyc.startsWith(`${behindProxy.url}/sandbox/kyc/`), links.kyc).toBe(true);
    expect(links.checkout.startsWith(`${behindProxy.url}/sandbox/checkout/`), links.checkout).toBe(true);
  });

  it('makes them from the public URL it was given (publicUrl, --public-url)', async () => {
    const links = await linksVia(published, `127.0.0.1:${new URL(published.url).port}`);
    expect(links.kyc.startsWith(`${PUBLIC_URL}/sandbox/kyc/`), links.kyc).toBe(true);
    expect(links.checkout.startsWith(`${PUBLIC_URL}/sandbox/checkout/`), links.checkout).toBe(true);
  });
});

describe('headers on every answer', () => {
  const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

  it('sends nosniff and a CSP allowing nothing on JSON answers and refusals of every kind', async () => {
    const answers: [string, RawAnswer][] = [
      ['a read', await rawExchange(plain.url, { target: '/sandbox/tenants' })],
      ['the description', await rawExchange(plain.url, { target: '/sandbox/openapi.json' })],
      ['no such path', await rawExchange(plain.url, { target: '/no/such/path' })],
      ['another method', await rawExchange(plain.url, { method: 'DELETE', target: '/sandbox/tenants' })],
      ['no token', await rawExchange(plain.url, { target: '/api/v1/users/clients' })],
      [
        'not JSON',
        await rawExchange(plain.url, {
          method: 'POST',
          target: '/sandbox/tenants',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        }),
      ],
      ['another host', await rawExchange(plain.url, { target: '/sandbox/tenants', headers: { host: 'evil.example' } })],
      [
        'another origin',
        await rawExchange(plain.url, { method: 'POST', target: '/sandbox/reset', headers: { origin: HOSTILE } }),
      ],
    ];
    for (const [what, answer] of answers) {
      expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
      expect(answer.headers['content-security-policy'], what).toBe(JSON_CSP);
    }
  });

  it('gives the docs page a CSP that allows its own inline scripts and styles by hash, never unsafe-inline', async () => {
    const answer = await rawExchange(plain.url, { target: '/sandbox/docs' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    const csp = answer.headers['content-security-policy'] ?? '';
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const inlineScripts = [...answer.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
      (m) => m[1]!,
    );
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const script of inlineScripts) {
      const hash = `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
      expect(csp).toContain(hash);
    }
  });

  it('keeps the pages` own headers', async () => {
    const page = await rawExchange(plain.url, { target: '/' });
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });
});
