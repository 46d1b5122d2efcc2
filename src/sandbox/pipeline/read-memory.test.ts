// On PGlite the sandbox keeps a read's answer until the next write: the same call answers the same, a write
// shows at once, and the answer kept for one tenant is never given to another at the same URL.
import { describe, expect, it } from 'vitest';
import { createBusinessClient, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';

describe('answers of reads kept until the next write (PGlite)', () => {
  const sandbox = useSandbox();

  async function tenant(name: string) {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const created = await orThrow(control.createTenant({ body: { name } }));
    return {
      created,
      control,
      business: createBusinessClient({
        baseUrl: sandbox.url,
        auth: { credentials: created.businessCredentials },
        retry: false,
      }),
    };
  }

  it('shows a write at once', async () => {
    const { created, control, business } = await tenant('Kept reads');
    const path = { clientId: created.clientId };
    const account = await orThrow(
      control.createBankAccount({ body: { clientId: created.clientId, accountNickname: 'Nómina' } }),
    );
    const first = await orThrow(business.listBankAccounts({ params: { path } }));
    expect(await orThrow(business.listBankAccounts({ params: { path } }))).toEqual(first);
    expect(first.map((a) => a.status)).toEqual(['in_review']);
    await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
    expect((await orThrow(business.listBankAccounts({ params: { path } }))).map((a) => a.status)).toEqual(['accepted']);
  });

  it('never gives one tenant the answer kept for another at the same URL', async () => {
    const a = await tenant('Tenant A');
    const b = await tenant('Tenant B');
    for (let i = 0; i < 2; i++) {
      expect(await orThrow(a.business.getClientInfo())).toMatchObject({
        clientId: a.created.clientId,
        name: 'Tenant A',
      });
      expect(await orThrow(b.business.getClientInfo())).toMatchObject({
        clientId: b.created.clientId,
        name: 'Tenant B',
      });
    }
    expect(sandbox.violations).toEqual([]);
  });
});
