// A write sent with a content type an HTML form of any web site can send (application/x-www-form-urlencoded,
// multipart/form-data, text/plain: no preflight asks first) is refused 415 and does nothing, whether or not it
// carries an Origin, a foreign one included (415, as the descriptions say, before the Origin's 403): the typed
// clients never send these types, and the sandbox takes JSON. An operation that takes no body (approveUser,
// resetSandbox) is no exception. So are a JSON body in another charset than UTF-8 and a request with two
// Content-Type headers. Reads, JSON writes and writes with no body go on.
import { describe, expect, it } from 'vitest';
import { createBusinessClient, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { rawRequest } from '../../testing/raw-http.js';
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
      for (const origin of [undefined, sandbox.url, 'https://elsewhere.example']) {
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

  it('refuses JSON in another charset than UTF-8 with 415, and takes charset=utf-8 in any spelling', async () => {
    const body = JSON.stringify({ name: 'Charset' });
    for (const [type, status] of [
      ['application/json; charset=iso-8859-1', 415],
      ['application/json;charset="windows-1252"', 415],
      ['application/json; charset=UTF-8', 201],
      ['application/json; charset="utf-8"', 201],
    ] as const) {
      const answer = await fetch(`${sandbox.url}/sandbox/tenants`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
      expect(answer.status, type).toBe(status);
      if (status === 415) expect(await answer.json()).toMatchObject({ message: expect.stringContaining('UTF-8') });
    }
  });

  it('refuses a request with two Content-Type headers with 415, whichever comes first', async () => {
    for (const [first, second] of [
      ['application/json', 'text/plain'],
      ['text/plain', 'application/json'],
    ]) {
      const head = `POST /sandbox/tenants HTTP/1.1\r\nContent-Type: ${first}\r\nContent-Type: ${second}`;
      const status = await rawRequest(sandbox.url, head, '{}');
      expect(status, `${first} then ${second}`).toBe(415);
    }
  });

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
