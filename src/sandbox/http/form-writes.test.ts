// A write sent with a content type an HTML form of any web site can send (application/x-www-form-urlencoded,
// multipart/form-data, text/plain: no preflight asks first) is refused 415 and does nothing, whether or not it
// carries an Origin: the typed clients never send these types, and the sandbox takes JSON. An operation that
// takes no body (approveUser, resetSandbox) is no exception. Reads, JSON writes and writes with no body go on.
import { describe, expect, it } from 'vitest';
import { createBusinessClient, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';

const sandbox = useSandbox();

const FORMS = [
  ['application/x-www-form-urlencoded', 'a=1'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
  ['text/plain', '{}'],
  ['Text/Plain; charset=utf-8', ''],
] as const;

describe('a write with a form content type', () => {
  it.each(FORMS)(
    '%s: refused 415 with and without Origin, the user left unapproved, the sandbox not reset',
    async (type, body) => {
      const control = createSandboxClient({ baseUrl: sandbox.url });
      const tenant = await orThrow(control.createTenant({ body: {} }));
      const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId } }));
      for (const origin of [undefined, sandbox.url]) {
        const headers = { 'content-type': type, ...(origin ? { origin } : {}) };
        const calls = [
          `/sandbox/bank-accounts/${account.accountId}/accept`,
          '/sandbox/reset',
          `/sandbox/users/${tenant.clientId}/approve`,
        ];
        for (const path of calls) {
          const answer = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers, body });
          expect(answer.status, `${path} with ${type}`).toBe(415);
          expect(await answer.json()).toMatchObject({
            error: 'unsupported_media_type',
            message: expect.stringContaining('form'),
          });
        }
      }
      const { tenants } = await orThrow(control.listTenants());
      expect(tenants.map((t) => t.clientId)).toContain(tenant.clientId);
      const business = createBusinessClient({
        baseUrl: sandbox.url,
        auth: { credentials: tenant.businessCredentials },
      });
      const accounts = await orThrow(business.listBankAccounts({ params: { path: { clientId: tenant.clientId } } }));
      expect(JSON.stringify(accounts)).not.toMatch(/accepted|APPROVED/i);
    },
  );

  it('leaves reads, JSON writes and writes with no body as they were', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId } }));
    const accepted = await fetch(`${sandbox.url}/sandbox/bank-accounts/${account.accountId}/accept`, {
      method: 'POST',
    });
    expect(accepted.status).toBe(200);
    const read = await fetch(`${sandbox.url}/sandbox/clock`, { headers: { 'content-type': 'text/plain' } });
    expect(read.status).toBe(200);
  });
});
