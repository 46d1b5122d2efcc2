// The sandbox, driven over HTTP with the typed clients: the README quickstart as written, then every refusal
// the source documents (and those the sandbox chose where it is silent).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BusinessClient,
  createBusinessClient,
  createV1Client,
  orThrow,
  type V1Client,
} from '../../client/index.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { captureLogger } from '../../testing/capture-logger.js';
import { runReadmeBlock } from '../../testing/readme-block.js';
import { forEachStore, type TestSandbox, useSandbox } from '../../testing/sandbox-fixture.js';
import { sandboxToken } from '../../testing/sandbox-users.js';
import { readBundleFile } from '../contract/document.js';
import type { Answer } from '../core/handler.js';
import { REFUSALS } from '../core/refusals.js';

// One sandbox per store (the suites below, one per store, run one after the other).
let sandbox: TestSandbox;
let control: SandboxClient;

/** The v1 description's own registration example, without the fixed external ID. */
function registration(): any {
  const doc = readBundleFile('v1') as any;
  const { external_user_id: _ignored, ...body } = structuredClone(doc.components.examples.RegisterNaturalPerson.value);
  return body;
}

interface World {
  tenant: Awaited<ReturnType<typeof newTenant>>;
  business: BusinessClient;
  v1: V1Client;
}
async function newTenant() {
  return orThrow(control.createTenant({ body: { name: 'Flow test' } }));
}
async function world(): Promise<World> {
  const tenant = await newTenant();
  return {
    tenant,
    business: createBusinessClient({
      baseUrl: sandbox.url,
      auth: { credentials: tenant.businessCredentials },
      retry: false,
    }),
    v1: createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false }),
  };
}
async function register(w: World, approve = true): Promise<string> {
  const user = await orThrow(
    w.v1.registerUser({
      params: { header: { 'x-integration-register': w.tenant.integrationRegister } },
      body: registration(),
    }),
  );
  if (approve) await orThrow(control.approveUser({ params: { path: { userId: user.user_id } } }));
  return user.user_id;
}
const rawToken = (family: 'business' | 'v1', credentials: unknown) => sandboxToken(sandbox.url, family, credentials);
const get = (path: string, token?: string) =>
  fetch(sandbox.url + path, token ? { headers: { authorization: `Bearer ${token}` } } : {});

forEachStore('the sandbox', (store) => {
  const running = useSandbox({ store });
  beforeAll(() => {
    sandbox = running;
    control = createSandboxClient({ baseUrl: sandbox.url });
  });

  it('has a handler for every operation of the three bundles', () => {
    expect(sandbox.gaps).toEqual([]);
  });

  it('runs the README quickstart as written, with the typed clients', async () => {
    const stdout = await runReadmeBlock('sandbox-quickstart', { SANDBOX_URL: sandbox.url });
    expect(stdout).toBe("PENDING PENDING_DEPOSIT { balance: '100', token: 'USDC' }");
  }, 30_000);

  describe('tokens', () => {
    it('refuses credentials of no tenant with 401, and the bank directory needs no token', async () => {
      const res = await fetch(`${sandbox.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: crypto.randomUUID(), clientSecret: 'wrong' }),
      });
      expect(res.status).toBe(401);
      expect((await get('/api/parameters/banks')).status).toBe(200);
    });

    it('expires Business tokens after 5 minutes of sandbox time; the client renews on the 401', async () => {
      const w = await world();
      const token = await rawToken('business', w.tenant.businessCredentials);
      const path = `/api/accounts/${w.tenant.clientId}`;
      expect((await get(path, token)).status).toBe(200);
      // A JWT's iat and exp are whole seconds, and real time runs on beside the advanced clock: 298 s leaves
      // the token its last second or two whatever the machine's pace; 3 more are past its 300 s however iat was rounded.
      await orThrow(control.advanceClock({ body: { seconds: 298 } }));
      expect((await get(path, token)).status).toBe(200);
      await orThrow(control.advanceClock({ body: { seconds: 3 } }));
      expect((await get(path, token)).status).toBe(401);
      expect(await orThrow(w.business.listBankAccounts({ params: { path: { clientId: w.tenant.clientId } } }))).toEqual(
        [],
      );
    });

    it('refuses a token of the other family or of no tenant with 401', async () => {
      const w = await world();
      const v1Token = await rawToken('v1', w.tenant.v1Credentials);
      expect((await get(`/api/accounts/${w.tenant.clientId}`, v1Token)).status).toBe(401);
      expect((await get(`/api/accounts/${w.tenant.clientId}`, 'sbx_business_forged')).status).toBe(401);
      expect((await get(`/api/accounts/${w.tenant.clientId}`)).status).toBe(401);
    });

    it("needs x-integration-register for registration: missing is 422, another client's is 401", async () => {
      const [a, b] = [await world(), await world()];
      const missing = await a.v1.registerUser({ params: { header: {} as any }, body: registration() });
      expect(missing.response.status).toBe(422);
      const foreign = await a.v1.registerUser({
        params: { header: { 'x-integration-register': b.tenant.integrationRegister } },
        body: registration(),
      });
      expect(foreign.response.status).toBe(401);
    });
  });

  describe('users, custody wallets and transfers', () => {
    it('answers a registration with status and complianceStatus pending', async () => {
      const w = await world();
      const user = await orThrow(
        w.v1.registerUser({
          params: { header: { 'x-integration-register': w.tenant.integrationRegister } },
          body: registration(),
        }),
      );
      expect(user.data.status).toBe('pending');
      expect(user.data.complianceStatus).toBe('pending');
    });

    it("refuses custody and transfer calls for a user that is not approved (403), accepts the client's own ID", async () => {
      const w = await world();
      const clientId = w.tenant.clientId;
      const pending = await register(w, false);
      for (const call of [
        w.business.createCustodyWallet({ params: { path: { clientId, userId: pending } }, body: { token: 'USDC' } }),
        w.business.listCustodyWallets({ params: { path: { clientId, userId: pending } } }),
        w.business.listWalletTransfers({ params: { path: { clientId, userId: pending } } }),
      ])
        expect((await call).response.status).toBe(403);
      const rejected = await register(w, false);
      await orThrow(control.rejectUser({ params: { path: { userId: rejected } } }));
      expect(
        (await w.business.listCustodyWallets({ params: { path: { clientId, userId: rejected } } })).response.status,
      ).toBe(403);
      const own = await orThrow(
        w.business.createCustodyWallet({
          params: { path: { clientId, userId: clientId } },
          body: { token: 'USDT', network: 'SUI' },
        }),
      );
      expect(own.userId).toBe(clientId);
    });

    it('creates custody wallets accepted and custodial, with a masked address, and reads balances from the ledger', async () => {
      const w = await world();
      const clientId = w.tenant.clientId;
      const userId = await register(w);
      const wallet = await orThrow(
        w.business.createCustodyWallet({ params: { path: { clientId, userId } }, body: { token: 'USDC' } }),
      );
      expect(wallet).toMatchObject({
        status: 'accepted',
        isCustodial: true,
        userId,
        supportedNetwork: { name: 'POLYGON' },
      });
      expect(wallet.wallet).toMatch(/^0x[0-9a-f]{4}\*{4}[0-9a-f]{4}$/);
      const path = { clientId, userId, walletId: wallet.id };
      expect(await orThrow(w.business.getCustodyWalletBalance({ params: { path } }))).toEqual({
        balance: '0',
        token: 'USDC',
      });
      await orThrow(control.fundWallet({ params: { path: { walletId: wallet.id } }, body: { amount: 12.5 } }));
      expect(await orThrow(w.business.getCustodyWalletBalance({ params: { path } }))).toEqual({
        balance: '12.5',
        token: 'USDC',
      });
      expect(await orThrow(w.business.listCustodyWallets({ params: { path: { clientId, userId } } }))).toHaveLength(1);
    });

    it('lists wallet transfers newest first, at most 10, with the status, date and originWallet filters', async () => {
      const w = await world();
      const clientId = w.tenant.clientId;
      const userId = await register(w);
      const open = () =>
        orThrow(w.business.createCustodyWallet({ params: { path: { clientId, userId } }, body: { token: 'USDC' } }));
      const [a, b, c] = [await open(), await open(), await open()];
      await orThrow(control.fundWallet({ params: { path: { walletId: a.id } }, body: { amount: 100 } }));
      await orThrow(control.fundWallet({ params: { path: { walletId: c.id } }, body: { amount: 100 } }));
      const ids: string[] = [];
      const transfer = async (from: string, amount: number) => {
        const t = (await orThrow(
          w.business.createWalletTransfer({
            params: { path: { clientId, userId } },
            body: { walletOriginId: from, walletDestinationId: b.id, amount },
          }),
        )) as { id: string; registerDate: string };
        ids.push(t.id);
        return t;
      };
      const first = await transfer(c.id, 5);
      await orThrow(control.advanceClock({ body: { seconds: 2 * 86_400 } }));
      for (let i = 1; i <= 11; i++) await transfer(a.id, i);
      const list = await orThrow(w.business.listWalletTransfers({ params: { path: { clientId, userId } } }));
      expect(list.map((t) => t.id)).toEqual(ids.slice(-10).reverse());
      await orThrow(control.completeWalletTransfer({ params: { path: { transferId: ids[3]! } } }));
      await orThrow(control.cancelWalletTransfer({ params: { path: { transferId: ids[4]! } } }));
      const q = (query: Record<string, string>) =>
        orThrow(w.business.listWalletTransfers({ params: { path: { clientId, userId }, query } }));
      expect((await q({ status: 'completed' })).map((t) => t.id)).toEqual([ids[3]]);
      expect((await q({ status: 'cancelled' })).map((t) => t.id)).toEqual([ids[4]]);
      expect((await q({ originWallet: c.id })).map((t) => t.id)).toEqual([first.id]);
      const day = first.registerDate.slice(0, 10);
      expect((await q({ startDate: day, finalDate: day })).map((t) => t.id)).toEqual([first.id]);
      const later = (await q({ startDate: list[0]!.registerDate.slice(0, 10) })).map((t) => t.id);
      expect(later).not.toContain(first.id);
      expect(later).toHaveLength(10);
      // Balances moved: a paid 1+...+11 = 66 and got 4 back from the cancelled transfer; b received the completed 3.
      expect(
        await orThrow(w.business.getCustodyWalletBalance({ params: { path: { clientId, userId, walletId: a.id } } })),
      ).toEqual({ balance: '38', token: 'USDC' });
      expect(
        await orThrow(w.business.getCustodyWalletBalance({ params: { path: { clientId, userId, walletId: b.id } } })),
      ).toEqual({ balance: '3', token: 'USDC' });
      const settledTwice = await control.completeWalletTransfer({ params: { path: { transferId: ids[3]! } } });
      expect(settledTwice.response.status).toBe(409);
    });
  });

  describe('bank accounts and payouts', () => {
    it('starts bank accounts in_review; a payout needs an accepted account of the user and enough balance, debits it and starts PENDING', async () => {
      const w = await world();
      const clientId = w.tenant.clientId;
      const userId = await register(w);
      const other = await register(w);
      const account = await orThrow(control.createBankAccount({ body: { clientId, userId } }));
      expect(account.status).toBe('in_review');
      const listed = await orThrow(w.business.listBankAccounts({ params: { path: { clientId }, query: { userId } } }));
      expect(listed.map((a) => [a.id, a.status])).toEqual([[account.accountId, 'in_review']]);
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1_000_000, currency: 'COP' } }));
      const payout = (destinationId: string, amount: number, user = userId) =>
        w.v1.createPayout({
          params: { path: { user_id: user } },
          body: { amount, currency: 'COP', destinationId, paymentMethod: 'BREB' },
        });

      expect((await payout(account.accountId, 100)).response.status).toBe(422); // still in_review
      await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
      const othersAccount = await orThrow(control.createBankAccount({ body: { clientId, userId: other } }));
      await orThrow(control.acceptBankAccount({ params: { path: { accountId: othersAccount.accountId } } }));
      expect((await payout(othersAccount.accountId, 100)).response.status).toBe(422); // not the user's
      expect((await payout(crypto.randomUUID(), 100)).response.status).toBe(422); // not registered
      expect((await payout(account.accountId, 1_000_001)).response.status).toBe(400); // insufficient funds

      const created = await orThrow(payout(account.accountId, 600_000));
      expect(created).toMatchObject({ status: 'PENDING', amount: 600_000, currency: 'COP', paymentMethod: 'BREB' });
      expect((await payout(account.accountId, 400_001)).response.status).toBe(400); // the debit happened
      await orThrow(control.rejectPayout({ params: { path: { payoutId: created.id } } })); // refunds
      expect((await orThrow(payout(account.accountId, 1_000_000))).status).toBe('PENDING');
      const rejectedAccount = await orThrow(control.createBankAccount({ body: { clientId, userId } }));
      expect(
        (await orThrow(control.rejectBankAccount({ params: { path: { accountId: rejectedAccount.accountId } } })))
          .status,
      ).toBe('rejected');
    });
  });

  describe('on-ramps', () => {
    async function onRampWorld() {
      const w = await world();
      const userId = await register(w);
      const wallet = await orThrow(control.createExternalWallet({ body: { userId } }));
      const onRamp = (body: Record<string, unknown>, user = userId) =>
        w.v1.createOnRamp({
          params: { path: { user_id: user } },
          body: {
            amount: 200_000,
            destination: { type: 'EXTERNAL', externalWalletId: wallet.externalWalletId },
            ...body,
          } as any,
        });
      return { w, userId, wallet, onRamp };
    }

    it('refuses a user that does not exist or is not approved with 403', async () => {
      const { w, onRamp } = await onRampWorld();
      expect((await onRamp({}, crypto.randomUUID())).response.status).toBe(403);
      expect((await onRamp({}, await register(w, false))).response.status).toBe(403);
    });

    it('refuses with 422 an invalid body, an amount of 0 or less, a pair not enabled, PSE without bankCode, and an unusable destination', async () => {
      const { w, userId, onRamp } = await onRampWorld();
      const status = async (body: Record<string, unknown>) => (await onRamp(body)).response.status;
      expect(await status({ destination: { type: 'EXTERNAL' } })).toBe(422);
      expect(await status({ amount: 0 })).toBe(422);
      expect(await status({ amount: -5 })).toBe(422);
      expect(await status({ symbolDestination: 'BTC' })).toBe(422);
      expect(await status({ paymentMethod: 'PSE' })).toBe(422);
      expect(await status({ destination: { type: 'EXTERNAL', externalWalletId: crypto.randomUUID() } })).toBe(422);
      const pending = await orThrow(control.createExternalWallet({ body: { userId, status: 'PENDING' } }));
      expect(await status({ destination: { type: 'EXTERNAL', externalWalletId: pending.externalWalletId } })).toBe(422);
      const someoneElse = await orThrow(control.createExternalWallet({ body: { userId: await register(w) } }));
      expect(await status({ destination: { type: 'EXTERNAL', externalWalletId: someoneElse.externalWalletId } })).toBe(
        422,
      );
      expect(await status({ paymentMethod: 'PSE', bankCode: '1007', redirectUrl: 'https://shop.example/back' })).toBe(
        201,
      );
    });

    it('refuses an operation over the tier limit with 422 and a tierEscalation; within it, tierEscalation is null and depositInfo set', async () => {
      const { userId, onRamp } = await onRampWorld();
      await orThrow(control.setTierLimit({ params: { path: { userId } }, body: { maxAmount: 300_000 } }));
      const over = await onRamp({ amount: 300_001 });
      expect(over.response.status).toBe(422);
      expect((over.error as any).tierEscalation.actionType).toBe('DOC_UPLOAD');
      const ok = await orThrow(onRamp({ amount: 300_000 }));
      expect(ok.tierEscalation).toBeNull();
      expect(ok.depositInfo).toMatchObject({ paymentMethod: 'DAVIPLATA' });
      expect(ok.operation).toMatchObject({
        status: 'PENDING_DEPOSIT',
        amountOrigin: 300_000,
        amountDestination: 75,
        symbolOrigin: 'COP',
        symbolDestination: 'USDC',
      });
      expect((await control.payOnRamp({ params: { path: { operationId: ok.operation.id } } })).data?.status).toBe(
        'COMPLETED',
      );
      expect((await control.payOnRamp({ params: { path: { operationId: ok.operation.id } } })).response.status).toBe(
        409,
      );
    });

    it('answers 400 for insufficient funds when the on-ramp is paid from the balance (INVERSE), with depositInfo null', async () => {
      const { userId, onRamp } = await onRampWorld();
      expect((await onRamp({ executionMode: 'INVERSE' })).response.status).toBe(400);
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 200_000, currency: 'COP' } }));
      const paid = await orThrow(onRamp({ executionMode: 'INVERSE' }));
      expect(paid.depositInfo).toBeNull();
      expect(paid.operation.status).toBe('COMPLETED');
    });
    it("refuses with 400 balance_limit an on-ramp whose stablecoin would take the custody wallet past the sandbox's most, at the deposit or paid from the balance", async () => {
      const { w, userId, onRamp } = await onRampWorld();
      const first = await orThrow(onRamp({}));
      await orThrow(control.payOnRamp({ params: { path: { operationId: first.operation.id } } }));
      const [wallet] = await orThrow(
        w.business.listCustodyWallets({ params: { path: { clientId: w.tenant.clientId, userId } } }),
      );
      // 50 USDC held; funded to 10 below the most a balance holds (10^15), so the next 50 would pass it.
      await orThrow(control.fundWallet({ params: { path: { walletId: wallet!.id } }, body: { amount: 1e15 - 60 } }));
      const pending = await orThrow(onRamp({}));
      const atDeposit = await control.payOnRamp({ params: { path: { operationId: pending.operation.id } } });
      expect(atDeposit.response.status).toBe(400);
      expect(atDeposit.error).toMatchObject({ error: REFUSALS.balanceLimit.code });
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 200_000, currency: 'COP' } }));
      const inverse = await onRamp({ executionMode: 'INVERSE' });
      expect(inverse.response.status).toBe(400);
      expect(inverse.error).toMatchObject({ error: REFUSALS.balanceLimit.code });
      expect(sandbox.violations).toEqual([]);
    });
  });

  describe('webhooks and tenants', () => {
    it("keeps a deleted business webhook's configuration with status false", async () => {
      const w = await world();
      const clientId = w.tenant.clientId;
      const hook = await orThrow(
        control.createBusinessWebhook({ body: { clientId, url: 'https://hooks.example/ramp', process: 'ramp' } }),
      );
      expect(hook.status).toBe(true);
      const deleted = await orThrow(w.business.deleteWebhook({ params: { path: { clientId, webhook_id: hook.id } } }));
      expect(deleted).toEqual({ ...hook, status: false });
      expect(await orThrow(w.business.listWebhooks({ params: { path: { clientId } } }))).toEqual({
        webhooks: [{ ...hook, status: false }],
      });
    });

    it("never lets one client's token read or change another client's data (403 or 404)", async () => {
      const [a, b] = [await world(), await world()];
      const userId = await register(a);
      const wallet = await orThrow(
        a.business.createCustodyWallet({
          params: { path: { clientId: a.tenant.clientId, userId } },
          body: { token: 'USDC' },
        }),
      );
      const account = await orThrow(control.createBankAccount({ body: { clientId: a.tenant.clientId, userId } }));
      await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
      await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1000, currency: 'COP' } }));
      const hook = await orThrow(
        control.createBusinessWebhook({
          body: { clientId: a.tenant.clientId, url: 'https://hooks.example/a', process: 'compliance' },
        }),
      );
      const external = await orThrow(control.createExternalWallet({ body: { userId } }));
      const A = a.tenant.clientId;
      const B = b.tenant.clientId;
      const attempts = [
        b.business.listBankAccounts({ params: { path: { clientId: A } } }),
        b.business.listCustodyWallets({ params: { path: { clientId: A, userId } } }),
        b.business.listCustodyWallets({ params: { path: { clientId: B, userId } } }),
        b.business.getCustodyWalletBalance({ params: { path: { clientId: B, userId: B, walletId: wallet.id } } }),
        b.business.listWalletTransfers({ params: { path: { clientId: A, userId } } }),
        b.business.createCustodyWallet({ params: { path: { clientId: B, userId } }, body: { token: 'USDC' } }),
        b.business.listWebhooks({ params: { path: { clientId: A } } }),
        b.business.listClientUsers({ params: { path: { clientId: A } } }),
        b.business.deleteWebhook({ params: { path: { clientId: A, webhook_id: hook.id } } }),
        b.business.deleteWebhook({ params: { path: { clientId: B, webhook_id: hook.id } } }),
        b.v1.createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 10, currency: 'COP', destinationId: account.accountId },
        }),
        b.v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: { amount: 10, destination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId } },
        }),
        b.v1.generateKycUrl({ params: { path: { user_id: userId } } }),
      ];
      for (const result of await Promise.all(attempts)) {
        expect([403, 404], `${result.response.url} answered ${result.response.status}`).toContain(
          result.response.status,
        );
        expect(JSON.stringify(result.error ?? {})).not.toContain(userId);
      }
      expect(await orThrow(b.v1.listAdminUsers())).toEqual({ users: [] });
      expect(await orThrow(b.v1.listAdminAccounts())).toEqual({ accounts: [] });
      expect((await orThrow(a.business.listWebhooks({ params: { path: { clientId: A } } }))).webhooks).toEqual([hook]);
    });
  });

  describe('answers that break the description', () => {
    // One sandbox for both tests, with handlers for two operations alone (every other one is a gap): each test
    // sets what they answer, and reads the violations and log lines it provoked.
    const answers: { listBanks?: Answer; createToken?: Answer } = {};
    const logger = captureLogger();
    const broken = useSandbox({
      store,
      logger,
      handlers: { listBanks: async () => answers.listBanks!, createToken: async () => answers.createToken! },
    });
    /** The violations and the log lines since `from` (their counts when the test began). */
    const since = (from: { violations: number; lines: number }) => ({
      violations: broken.violations.slice(from.violations),
      lines: logger.lines.slice(from.lines),
    });
    const counts = () => ({ violations: broken.violations.length, lines: logger.lines.length });

    it('fails loudly when an answer breaks the description, naming the operation and the field', async () => {
      const from = counts();
      answers.listBanks = { status: 200, body: [{ id: 7, code: '1007', name: 'Bancolombia', status: 'true' }] };
      const res = await fetch(`${broken.url}/api/parameters/banks`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error: REFUSALS.contractViolation.code,
        message: expect.stringMatching(/^listBanks answered 200, which breaks the description: \/0\/id must be string/),
      });
      expect(since(from).violations).toHaveLength(1);
      expect(broken.gaps).toContain('createPayout');
      // An operation without a handler answers 501, which no description documents: a 500 naming it.
      const gap = await fetch(`${broken.url}/api/v1/client/token`, { method: 'POST' });
      expect([gap.status, ((await gap.json()) as { message: string }).message]).toEqual([
        500,
        'createClientToken answered 501, which breaks the description: status 501 is not documented',
      ]);
      // Each said on the sandbox's log, as the answer says it.
      const { violations, lines } = since(from);
      expect(lines).toEqual(violations.map((violation) => `[sandbox] ${violation}`));
      expect(lines).toHaveLength(2);
    }, 30_000);

    it('answers a 500 naming the operation for any status its description does not document, 403 and 404 included (no exemption)', async () => {
      const from = counts();
      answers.listBanks = { status: 403, body: { error: 'refused', message: 'no' } };
      answers.createToken = { status: 404, body: { error: 'refused', message: 'no' } };
      const banks = await fetch(`${broken.url}/api/parameters/banks`);
      const token = await fetch(`${broken.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect([banks.status, ((await banks.json()) as { message: string }).message]).toEqual([
        500,
        'listBanks answered 403, which breaks the description: status 403 is not documented',
      ]);
      expect([token.status, ((await token.json()) as { message: string }).message]).toEqual([
        500,
        'createToken answered 404, which breaks the description: status 404 is not documented',
      ]);
      expect(since(from).violations).toHaveLength(2);
      expect(since(from).lines).toEqual([
        '[sandbox] listBanks answered 403, which breaks the description: status 403 is not documented',
        '[sandbox] createToken answered 404, which breaks the description: status 404 is not documented',
      ]);
    }, 30_000);
  });

  // Last, on the sandbox the tests above used: it removes every tenant they made.
  it('resetSandbox removes every tenant and everything in it', async () => {
    const t = await orThrow(control.createTenant({ body: {} }));
    await orThrow(control.createBankAccount({ body: { clientId: t.clientId } }));
    const { tenants } = await orThrow(control.listTenants());
    expect(await orThrow(control.resetSandbox())).toEqual({ tenantsRemoved: tenants.length });
    expect((await orThrow(control.listTenants())).tenants).toEqual([]);
    const business = createBusinessClient({ baseUrl: sandbox.url, auth: { credentials: t.businessCredentials } });
    await expect(business.listBankAccounts({ params: { path: { clientId: t.clientId } } })).rejects.toThrow(
      'failed with HTTP 401',
    );
    expect((await control.createBankAccount({ body: { clientId: t.clientId } })).response.status).toBe(404);
  }, 30_000);

  it('gave no answer that breaks the description during the whole run', () => {
    expect(sandbox.violations).toEqual([]);
  });
});
