// The sandbox's own rate limits: none until setRateLimit, then 429 with Retry-After in fixed windows of
// sandbox time; only operations whose description declares a 429 can be limited (read from the bundles).
import { describe, expect, it } from 'vitest';
import { ApiError, createBusinessClient, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { sandboxInTest, useSandbox } from '../../testing/sandbox-fixture.js';
import { readBundleFile } from '../contract/document.js';
import { REFUSALS } from '../core/refusals.js';

describe("rate limits (the sandbox's own)", () => {
  const sandbox = useSandbox();
  const banks = () => fetch(`${sandbox.url}/api/parameters/banks`);

  it("refuses listBanks with 429 and Retry-After once a window's calls are used up, and answers again in the next window", async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    for (let i = 0; i < 30; i++) expect((await banks()).status).toBe(200);
    // 90 s past a whole minute of sandbox time, so the window (one minute) has 30 s left.
    const { now } = await orThrow(control.advanceClock({ body: { seconds: 0.001 } }));
    const intoMinute = new Date(now).getTime() % 60_000;
    // Never 0 (which advanceClock refuses): already 30 s into the minute, a whole minute on keeps it so.
    await orThrow(control.advanceClock({ body: { seconds: Math.ceil((90_000 - intoMinute) / 1000) % 60 || 60 } }));
    expect(
      await orThrow(
        control.setRateLimit({ params: { path: { operationId: 'listBanks' } }, body: { limit: 2, windowSeconds: 60 } }),
      ),
    ).toEqual({ operationId: 'listBanks', limit: 2, windowSeconds: 60 });
    expect((await banks()).status).toBe(200);
    expect((await banks()).status).toBe(200);
    const refused = await banks();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({ error: REFUSALS.rateLimited.code });
    // The typed client names it.
    const business = createBusinessClient({ baseUrl: sandbox.url, retry: false });
    const { error, response } = await business.listBanks();
    expect(response.status).toBe(429);
    expect(error).toBeDefined();
    await expect(orThrow(business.listBanks())).rejects.toBeInstanceOf(ApiError);
    await orThrow(control.advanceClock({ body: { seconds: retryAfter } }));
    expect((await banks()).status).toBe(200);
    expect(sandbox.violations).toEqual([]);
  });

  it('lifts the limit with clearRateLimit and with resetSandbox', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    await orThrow(
      control.setRateLimit({ params: { path: { operationId: 'listBanks' } }, body: { limit: 0, windowSeconds: 3600 } }),
    );
    expect((await banks()).status).toBe(429);
    expect((await control.clearRateLimit({ params: { path: { operationId: 'listBanks' } } })).response.status).toBe(
      204,
    );
    expect((await banks()).status).toBe(200);
    await orThrow(
      control.setRateLimit({ params: { path: { operationId: 'listBanks' } }, body: { limit: 0, windowSeconds: 3600 } }),
    );
    expect((await banks()).status).toBe(429);
    await orThrow(control.resetSandbox());
    expect((await banks()).status).toBe(200);
  });

  it('refuses to limit an operation whose description declares no 429, or one that does not exist', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    for (const operationId of ['createPayout', 'noSuchOperation']) {
      const { error, response } = await control.setRateLimit({
        params: { path: { operationId } },
        body: { limit: 1, windowSeconds: 1 },
      });
      expect(response.status).toBe(404);
      expect(error).toMatchObject({ error: REFUSALS.notLimitable.code });
    }
  });
});

describe('rate limits follow the bundles', () => {
  it('an operation that gains a 429 in its description can be limited, and is counted per tenant', async () => {
    const business = structuredClone(readBundleFile('business')) as any;
    business.paths['/api/infoClient'].get.responses['429'] =
      business.paths['/api/parameters/banks'].get.responses['429'];
    const sandbox = await sandboxInTest({
      bundles: [
        { family: 'business', doc: business },
        { family: 'v1', doc: readBundleFile('v1') },
        { family: 'sandbox', doc: readBundleFile('sandbox') },
      ],
    });
    const control = createSandboxClient({ baseUrl: sandbox.url });
    await orThrow(
      control.setRateLimit({
        params: { path: { operationId: 'getClientInfo' } },
        body: { limit: 1, windowSeconds: 600 },
      }),
    );
    const call = async () => {
      const tenant = await orThrow(control.createTenant({ body: {} }));
      const client = createBusinessClient({
        baseUrl: sandbox.url,
        auth: { credentials: tenant.businessCredentials },
        retry: false,
      });
      return [(await client.getClientInfo()).response.status, (await client.getClientInfo()).response.status];
    };
    expect(await call()).toEqual([200, 429]);
    expect(await call()).toEqual([200, 429]);
    expect(sandbox.violations).toEqual([]);
  });
});
