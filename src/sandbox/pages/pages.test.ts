// The sandbox in a browser, at the HTTP level: the KYC link and the checkout link lead to pages of
// the sandbox itself, and the control operations behind them run the same transitions as approveUser,
// rejectUser, payOnRamp and rejectOnRamp, with the same events, on their own record only. The dashboard's
// reads (listTenants, getTenantState, getClock, listEvents) show a tenant's records as they are, and a
// tenant's own token reaches its own only. The pages themselves are driven by clicking in
// src/sandbox/pages/pages.e2e.test.ts.
import { randomUUID } from 'node:crypto';
import { createBusinessClient, createV1Client, orThrow, type V1Client } from 'ramp-api';
import { createSandboxClient, type SandboxClient } from 'ramp-api/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachStore, useSandbox } from '../../testing/sandbox-fixture.js';
import { registerExampleUser, sandboxToken } from '../../testing/sandbox-users.js';
import { readBundleFile } from '../contract/document.js';
import { REFUSALS } from '../core/refusals.js';

const ADMIN_TOKEN = `adm_${randomUUID()}`;
const example = (readBundleFile('v1') as any).components.examples.RegisterNaturalPerson.value;
const fullName = [example.first_name, example.second_name, example.first_surname, example.second_surname]
  .filter(Boolean)
  .join(' ');

forEachStore("the sandbox's pages", (store) => {
  const sandbox = useSandbox({ store, adminToken: ADMIN_TOKEN });
  let control: SandboxClient;

  async function tenant(name = 'Pages test') {
    const t = await orThrow(control.createTenant({ body: { name } }));
    return {
      ...t,
      v1: createV1Client({ baseUrl: sandbox.url, auth: { credentials: t.v1Credentials }, retry: false }),
    };
  }
  const lastSegment = (url: string) => new URL(url).pathname.split('/').at(-1)!;
  const eventsOf = async (tenantId: string) =>
    (await orThrow(control.listEvents({ params: { query: { tenant: tenantId } } }))).events;
  const statusOf = async (tenantId: string, userId: string) =>
    (await orThrow(control.getTenantState({ params: { path: { tenantId } } }))).users.find((u) => u.userId === userId)
      ?.status;

  beforeAll(() => {
    control = createSandboxClient({ baseUrl: sandbox.url, adminToken: ADMIN_TOKEN });
  });

  describe('the KYC link', () => {
    it('is a page of the sandbox itself that shows who is verified, with the template and metadata name given', async () => {
      const t = await tenant();
      const userId = await registerExampleUser(sandbox.url, t);
      const { url } = await orThrow(
        t.v1.generateKycUrl({
          params: {
            path: { user_id: userId },
            query: { template_id: 'tpl-co-basic', custom_metadata_name: 'onboarding-web' },
          },
        }),
      );
      expect(new URL(url).origin).toBe(sandbox.url);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      // The page asks the control API; the link's ID is its only credential, so no admin token is needed.
      const session = await orThrow(
        createSandboxClient({ baseUrl: sandbox.url }).getKycSession({
          params: { path: { sessionId: lastSegment(url) } },
        }),
      );
      expect(session).toMatchObject({
        userId,
        clientId: t.clientId,
        name: fullName,
        documentType: example.document_type,
        documentNumber: example.document_number,
        templateId: 'tpl-co-basic',
        customMetadataName: 'onboarding-web',
        userStatus: 'pending',
        used: null,
      });
      const plain = await orThrow(t.v1.generateKycUrl({ params: { path: { user_id: userId } } }));
      expect(
        await orThrow(control.getKycSession({ params: { path: { sessionId: lastSegment(plain.url) } } })),
      ).toMatchObject({ templateId: null, customMetadataName: null });
    });

    it("approving runs approveUser's transition with its event; the link then says it was used, and a new one that the user is no longer pending", async () => {
      const t = await tenant();
      const userId = await registerExampleUser(sandbox.url, t);
      const sessionId = lastSegment(
        (await orThrow(t.v1.generateKycUrl({ params: { path: { user_id: userId } } }))).url,
      );
      const anyone = createSandboxClient({ baseUrl: sandbox.url });
      expect(await orThrow(anyone.approveKycSession({ params: { path: { sessionId } } }))).toEqual({
        userId,
        clientId: t.clientId,
        status: 'approved',
        complianceStatus: 'approved',
      });
      expect(await statusOf(t.clientId, userId)).toBe('approved');
      const updated = (await eventsOf(t.clientId)).filter((e) => e.event === 'user.updated');
      expect(updated.map((e) => (e.data as { id: string; status: string }).status)).toEqual(['approved']);
      expect((updated[0]!.data as { id: string }).id).toBe(userId);

      const again = await anyone.rejectKycSession({ params: { path: { sessionId } } });
      expect(again.response.status).toBe(409);
      expect(again.error).toMatchObject({
        error: REFUSALS.conflict.code,
        message: expect.stringMatching(/already used.*approved/i),
      });
      expect(await orThrow(anyone.getKycSession({ params: { path: { sessionId } } }))).toMatchObject({
        userStatus: 'approved',
        used: { outcome: 'approved' },
      });

      const fresh = lastSegment((await orThrow(t.v1.generateKycUrl({ params: { path: { user_id: userId } } }))).url);
      const late = await anyone.approveKycSession({ params: { path: { sessionId: fresh } } });
      expect(late.response.status).toBe(409);
      expect(late.error).toMatchObject({
        error: REFUSALS.conflict.code,
        message: expect.stringMatching(/no longer pending.*approved/i),
      });
      expect((await eventsOf(t.clientId)).filter((e) => e.event === 'user.updated')).toHaveLength(1);
    });

    it("rejecting runs rejectUser's transition and sends user.canceled", async () => {
      const t = await tenant();
      const userId = await registerExampleUser(sandbox.url, t);
      const sessionId = lastSegment(
        (await orThrow(t.v1.generateKycUrl({ params: { path: { user_id: userId } } }))).url,
      );
      expect(await orThrow(control.rejectKycSession({ params: { path: { sessionId } } }))).toMatchObject({
        userId,
        status: 'rejected',
      });
      expect(
        (await eventsOf(t.clientId))
          .filter((e) => e.event === 'user.canceled')
          .map((e) => (e.data as { id: string }).id),
      ).toEqual([userId]);
    });

    it('acts on its own user of its own tenant only; an unknown link is 404 and a malformed one 400', async () => {
      const [a, b] = [await tenant('A'), await tenant('B')];
      const a1 = await registerExampleUser(sandbox.url, a);
      const a2 = await registerExampleUser(sandbox.url, a, { document_number: '1036650002' });
      const b1 = await registerExampleUser(sandbox.url, b, { document_number: '1036650003' });
      const links = await Promise.all(
        [
          [a, a1],
          [a, a2],
          [b, b1],
        ].map(async ([t, id]) =>
          lastSegment(
            (await orThrow((t as typeof a).v1.generateKycUrl({ params: { path: { user_id: id as string } } }))).url,
          ),
        ),
      );
      expect(new Set(links).size).toBe(3);
      await orThrow(control.approveKycSession({ params: { path: { sessionId: links[0]! } } }));
      expect([await statusOf(a.clientId, a1), await statusOf(a.clientId, a2), await statusOf(b.clientId, b1)]).toEqual([
        'approved',
        'pending',
        'pending',
      ]);
      expect(await orThrow(control.getKycSession({ params: { path: { sessionId: links[2]! } } }))).toMatchObject({
        userId: b1,
        clientId: b.clientId,
      });
      // Another tenant's user cannot be given a link: generateKycUrl with A's user and B's token is 404.
      expect((await b.v1.generateKycUrl({ params: { path: { user_id: a2 } } })).response.status).toBe(404);
      const unknown = await control.approveKycSession({ params: { path: { sessionId: `kyc_${'x'.repeat(32)}` } } });
      expect(unknown.response.status).toBe(404);
      const malformed = await fetch(`${sandbox.url}/sandbox/kyc-sessions/${a1}/approve`, { method: 'POST' });
      expect(malformed.status).toBe(400);
      expect(await statusOf(a.clientId, a2)).toBe('pending');
    });
  });

  describe('the checkout link', () => {
    async function approvedUserWithWallet(t: Awaited<ReturnType<typeof tenant>>) {
      const userId = await registerExampleUser(sandbox.url, t);
      await orThrow(control.approveUser({ params: { path: { userId } } }));
      const { externalWalletId } = await orThrow(control.createExternalWallet({ body: { userId } }));
      return { userId, externalWalletId };
    }
    const pse = (externalWalletId: string, redirectUrl?: string) => ({
      amount: 400_000,
      paymentMethod: 'PSE' as const,
      bankCode: '1051',
      destination: { type: 'EXTERNAL' as const, externalWalletId },
      ...(redirectUrl ? { redirectUrl } : {}),
    });

    it('is in depositInfo of an on-ramp waiting for its deposit, a page of the sandbox that shows what to pay, how and where; paying is payOnRamp', async () => {
      const t = await tenant();
      const { userId, externalWalletId } = await approvedUserWithWallet(t);
      const created = await orThrow(
        t.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: pse(externalWalletId, 'https://shop.example/return?order=7'),
        }),
      );
      const instructions = (created.depositInfo as { depositInstructions: Record<string, unknown> })
        .depositInstructions;
      expect(instructions).toMatchObject({
        paymentMethod: 'PSE',
        amount: 400_000,
        currency: 'COP',
        bankCode: '1051',
        bankName: 'Davivienda',
      });
      const checkoutUrl = String(instructions.checkoutUrl);
      expect(new URL(checkoutUrl).origin).toBe(sandbox.url);
      expect(
        (created.operation as { depositInstructions: Record<string, unknown> }).depositInstructions.checkoutUrl,
      ).toBe(checkoutUrl);
      const page = await fetch(checkoutUrl);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);

      const anyone = createSandboxClient({ baseUrl: sandbox.url });
      const checkoutId = lastSegment(checkoutUrl);
      expect(await orThrow(anyone.getCheckout({ params: { path: { checkoutId } } }))).toMatchObject({
        operationId: created.operation.id,
        clientId: t.clientId,
        amount: 400_000,
        currency: 'COP',
        paymentMethod: 'PSE',
        bankCode: '1051',
        bankName: 'Davivienda',
        amountDestination: 100,
        symbolDestination: 'USDC',
        redirectUrl: 'https://shop.example/return?order=7',
        status: 'PENDING_DEPOSIT',
      });
      expect(await orThrow(anyone.payCheckout({ params: { path: { checkoutId } } }))).toEqual({
        operationId: created.operation.id,
        status: 'COMPLETED',
        redirectUrl: 'https://shop.example/return?order=7',
      });
      const events = (await eventsOf(t.clientId))
        .filter((e) => (e.data as { id?: string }).id === created.operation.id)
        .map((e) => e.event);
      expect(events).toEqual(['operation.created', 'fiat.payin.completed', 'operation.status_updated']);
      const business = createBusinessClient({
        baseUrl: sandbox.url,
        auth: { credentials: t.businessCredentials },
        retry: false,
      });
      const [wallet] = await orThrow(
        business.listCustodyWallets({ params: { path: { clientId: t.clientId, userId } } }),
      );
      expect(
        await orThrow(
          business.getCustodyWalletBalance({
            params: { path: { clientId: t.clientId, userId, walletId: wallet!.id } },
          }),
        ),
      ).toEqual({ balance: '100', token: 'USDC' });
      const twice = await anyone.rejectCheckout({ params: { path: { checkoutId } } });
      expect(twice.response.status).toBe(409);
      expect(twice.error).toMatchObject({ message: expect.stringMatching(/COMPLETED/) });
    });

    it('rejecting is rejectOnRamp: REJECTED, fiat.payin.rejected, nothing credited; an on-ramp paid from the balance has no checkout', async () => {
      const t = await tenant();
      const { userId, externalWalletId } = await approvedUserWithWallet(t);
      const created = await orThrow(
        t.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: {
            amount: 80_000,
            paymentMethod: 'NEQUI',
            phone: '+573001112233',
            destination: { type: 'EXTERNAL', externalWalletId },
          },
        }),
      );
      const checkoutId = lastSegment(String((created.depositInfo as any).depositInstructions.checkoutUrl));
      expect(await orThrow(control.getCheckout({ params: { path: { checkoutId } } }))).toMatchObject({
        paymentMethod: 'NEQUI',
        phone: '+573001112233',
        bankCode: null,
        bankName: null,
        redirectUrl: null,
      });
      expect(await orThrow(control.rejectCheckout({ params: { path: { checkoutId } } }))).toEqual({
        operationId: created.operation.id,
        status: 'REJECTED',
        redirectUrl: null,
      });
      const events = (await eventsOf(t.clientId)).filter(
        (e) => (e.data as { id?: string }).id === created.operation.id,
      );
      expect(events.map((e) => e.event)).toEqual([
        'operation.created',
        'fiat.payin.rejected',
        'operation.status_updated',
      ]);
      expect((events[1]!.data as { status: string }).status).toBe('REJECTED');
      const state = await orThrow(control.getTenantState({ params: { path: { tenantId: t.clientId } } }));
      expect(state.custodyWallets).toEqual([]);
      expect(state.onRamps.map((o) => o.status)).toEqual(['REJECTED']);

      // The control API's own rejectOnRamp does the same, once.
      const second = await orThrow(
        t.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: { amount: 40_000, phone: '+573001112233', destination: { type: 'EXTERNAL', externalWalletId } },
        }),
      );
      expect(await orThrow(control.rejectOnRamp({ params: { path: { operationId: second.operation.id } } }))).toEqual({
        id: second.operation.id,
        status: 'REJECTED',
      });
      expect(
        (await control.payOnRamp({ params: { path: { operationId: second.operation.id } } })).response.status,
      ).toBe(409);

      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 100_000, currency: 'COP' } }));
      const inverse = await orThrow(
        t.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: { amount: 40_000, executionMode: 'INVERSE', destination: { type: 'EXTERNAL', externalWalletId } },
        }),
      );
      expect(inverse.depositInfo).toBeNull();
      expect(
        (await orThrow(control.getTenantState({ params: { path: { tenantId: t.clientId } } }))).onRamps.find(
          (o) => o.id === inverse.operation.id,
        )?.checkoutUrl,
      ).toBeNull();
      expect(
        (await control.getCheckout({ params: { path: { checkoutId: `chk_${'y'.repeat(32)}` } } })).response.status,
      ).toBe(404);
    });
  });

  describe("the dashboard's reads", () => {
    it("getTenantState shows every kind of record as it is now; a tenant's own token reaches its own tenant only", async () => {
      const [a, b] = [await tenant('Dash A'), await tenant('Dash B')];
      const userId = await registerExampleUser(sandbox.url, a);
      await orThrow(control.approveUser({ params: { path: { userId } } }));
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 900_000, currency: 'COP' } }));
      const { accountId } = await orThrow(
        control.createBankAccount({
          body: { clientId: a.clientId, userId, bankName: 'Davivienda', accountNumber: '0550-1234-99' },
        }),
      );
      await orThrow(control.acceptBankAccount({ params: { path: { accountId } } }));
      const payout = await orThrow(
        a.v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 300_000, currency: 'COP', destinationId: accountId, paymentMethod: 'ACH' },
        }),
      );
      const business = createBusinessClient({
        baseUrl: sandbox.url,
        auth: { credentials: a.businessCredentials },
        retry: false,
      });
      const w1 = await orThrow(
        business.createCustodyWallet({ params: { path: { clientId: a.clientId, userId } }, body: { token: 'USDC' } }),
      );
      const w2 = await orThrow(
        business.createCustodyWallet({ params: { path: { clientId: a.clientId, userId } }, body: { token: 'USDC' } }),
      );
      await orThrow(control.fundWallet({ params: { path: { walletId: w1.id } }, body: { amount: 50 } }));
      const transfer = await orThrow(
        business.createWalletTransfer({
          params: { path: { clientId: a.clientId, userId } },
          body: { walletOriginId: w1.id, walletDestinationId: w2.id, amount: 20 },
        } as any),
      );
      const hook = await orThrow(
        control.createBusinessWebhook({
          body: { clientId: a.clientId, url: 'http://127.0.0.1:9/hook', process: 'ramp' },
        }),
      );
      const endpoint = await orThrow(
        (a.v1 as V1Client).createIntegrationEndpoint({
          body: {
            name: 'ledger',
            direction: 'OUTBOUND',
            url: 'http://127.0.0.1:9/ledger',
            httpMethod: 'POST',
            triggerEvent: 'fiat.payout.completed',
          },
        }),
      );
      const { externalWalletId } = await orThrow(control.createExternalWallet({ body: { userId } }));

      const state = await orThrow(control.getTenantState({ params: { path: { tenantId: a.clientId } } }));
      expect(state.tenant).toMatchObject({ clientId: a.clientId, name: 'Dash A' });
      expect(state.users).toEqual([
        expect.objectContaining({
          userId,
          status: 'approved',
          firstName: example.first_name,
          documentNumber: example.document_number,
          email: example.email,
        }),
      ]);
      expect(state.balances).toEqual([{ userId, currency: 'COP', balance: 600_000 }]);
      expect(state.bankAccounts).toEqual([
        expect.objectContaining({
          accountId,
          userId,
          status: 'accepted',
          bankName: 'Davivienda',
          accountNumber: '0550-1234-99',
        }),
      ]);
      expect(state.payouts).toEqual([
        expect.objectContaining({
          id: payout.id,
          userId,
          destinationId: accountId,
          amount: 300_000,
          status: 'PENDING',
        }),
      ]);
      expect(state.custodyWallets.map((w) => [w.id, w.balance])).toEqual([
        [w1.id, '30'],
        [w2.id, '0'],
      ]);
      expect(state.transfers).toEqual([
        expect.objectContaining({
          id: (transfer as { id: string }).id,
          walletOriginId: w1.id,
          walletDestinationId: w2.id,
          amount: 20,
          status: 'pending',
        }),
      ]);
      expect(state.webhooks).toEqual([expect.objectContaining({ id: hook.id, process: 'ramp', status: true })]);
      expect(state.endpoints).toEqual([
        expect.objectContaining({
          id: endpoint.id,
          name: 'ledger',
          triggerEvent: 'fiat.payout.completed',
          isActive: true,
        }),
      ]);
      expect(state.externalWallets).toEqual([
        expect.objectContaining({ externalWalletId, userId, status: 'APPROVED' }),
      ]);
      expect(JSON.stringify(state)).not.toContain(a.v1Credentials.clientSecret);

      const asB = createSandboxClient({
        baseUrl: sandbox.url,
        adminToken: await sandboxToken(sandbox.url, 'v1', b.v1Credentials),
      });
      expect((await orThrow(asB.listTenants())).tenants.map((x) => x.clientId)).toEqual([b.clientId]);
      expect((await orThrow(asB.getTenantState({ params: { path: { tenantId: b.clientId } } }))).users).toEqual([]);
      const crossed = await asB.getTenantState({ params: { path: { tenantId: a.clientId } } });
      const unknown = await asB.getTenantState({ params: { path: { tenantId: randomUUID() } } });
      expect([crossed.response.status, unknown.response.status]).toEqual([404, 404]);
      expect(JSON.stringify(crossed.error)).not.toContain('Dash A');
      expect((await orThrow(asB.listEvents())).events.every((e) => e.tenantId === b.clientId)).toBe(true);
      const all = (await orThrow(control.listTenants())).tenants.map((x) => x.clientId);
      expect(all).toEqual(expect.arrayContaining([a.clientId, b.clientId]));
      // Without a token, a sandbox that has an admin token shows nothing.
      expect((await createSandboxClient({ baseUrl: sandbox.url }).listTenants()).response.status).toBe(401);
    });

    it('getClock reads sandbox time as it runs and as advanceClock moves it', async () => {
      const before = await orThrow(control.getClock());
      await orThrow(control.advanceClock({ body: { seconds: 90 } }));
      const after = await orThrow(control.getClock());
      expect(after.offsetSeconds - before.offsetSeconds).toBe(90);
      expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(90_000);
      // Read twice with no write between, the clock still moves with real time (no read is kept).
      await new Promise((r) => setTimeout(r, 30));
      expect(Date.parse((await orThrow(control.getClock())).now)).toBeGreaterThan(Date.parse(after.now));
    });

    it('serves the dashboard at / and its assets from the package, offline (no other origin named), with a same-origin policy', async () => {
      const page = await fetch(`${sandbox.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        expect(asset.startsWith('/'), asset).toBe(true);
        const answer = await fetch(sandbox.url + asset);
        expect(answer.status, asset).toBe(200);
        expect(await answer.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|www\.w3\.org)[a-z]/);
      }
      expect((await fetch(`${sandbox.url}/sandbox/assets/nothing.js`)).status).toBe(404);
      expect((await fetch(`${sandbox.url}/sandbox/assets/..%2fpackage.json`)).status).toBe(404);
    });
  });
});
