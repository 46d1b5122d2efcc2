// The treasury service against a sandbox: its configuration, onboarding, custody wallets and their balances,
// transfers, payouts with each status it tells apart, on-ramps, the bank and user directories, webhook endpoints,
// and its receiver handling each event it subscribes to.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orThrow } from 'ramp-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Applicant } from '../src/users/applicant.js';
import { startTreasurySandbox, type TreasurySandbox } from './sandbox.js';

type Service = typeof import('../src/index.js');
let run: TreasurySandbox;
let service: Service;
let treasury: InstanceType<Service['Treasury']>;
let userId: string;

const applicant = (overrides: Partial<Applicant> = {}): Applicant => ({
  firstName: 'Laura',
  middleName: 'Marcela',
  surname: 'Gómez',
  secondSurname: 'Restrepo',
  birthDate: '1991-04-23',
  phone: '+573104567890',
  email: `laura.${randomUUID().slice(0, 8)}@correo.example`,
  address: { street: 'Carrera 76 # 33A-45', neighborhood: 'Laureles', city: 'Medellín', department: 'Antioquia' },
  documentNumber: String(Math.floor(Math.random() * 1e10)),
  documentIssued: '2009-05-12',
  occupation: 'Ingeniera de software',
  monthlyIncome: 9_500_000,
  monthlyExpenses: 4_200_000,
  ...overrides,
});

beforeAll(async () => {
  run = await startTreasurySandbox();
  service = await import('../src/index.js');
  treasury = new service.Treasury(service.configFromEnv());
  const registered = await service.register(treasury.clients, run.tenant.integrationRegister, applicant());
  if (!('userId' in registered)) throw new Error(`registration refused: ${registered.refused}`);
  userId = registered.userId;
  await orThrow(run.control.approveUser({ params: { path: { userId } } }));
});

afterAll(async () => {
  await run?.sandbox.close();
});

describe('configuration', () => {
  it('reads the settings from the environment, and names one that is missing', () => {
    expect(service.configFromEnv()).toMatchObject({ baseUrl: run.url, clientId: run.tenant.clientId });
    expect(() => service.configFromEnv({ RAMP_CLIENT_ID: 'x' })).toThrow('RAMP_BUSINESS_SECRET is not set.');
  });
});

describe('onboarding', () => {
  it('registers an applicant: the user, their status and name', async () => {
    const registered = await service.register(treasury.clients, run.tenant.integrationRegister, applicant());
    expect(registered).toMatchObject({ status: expect.any(String), person: 'Laura Gómez' });
  });

  it('says why the service refused a registration (422)', async () => {
    const refused = await service.register(
      treasury.clients,
      run.tenant.integrationRegister,
      applicant({ birthDate: 'not a date' }),
    );
    expect(refused).toEqual({ refused: expect.stringContaining('422') });
  });

  it("hands out a user's verification link, and none for a user it does not know", async () => {
    expect(await service.verificationLink(treasury.clients, userId)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(await service.verificationLink(treasury.clients, randomUUID())).toBeUndefined();
  });
});

describe('custody wallets and balances', () => {
  it('opens wallets, lists them newest first and groups them by network', async () => {
    const first = await treasury.wallets.open(userId, 'usdc', 'POLYGON');
    const second = await treasury.wallets.open(userId, 'usdc', 'SUI');
    expect(first).toMatchObject({ id: expect.any(String), status: 'accepted' });
    expect(treasury.wallets.lastOpened).toEqual(second);
    const listed = await treasury.wallets.refresh(userId);
    expect(listed.map((w) => w.id).sort()).toEqual([first, second].map((w) => (w as { id: string }).id).sort());
    expect(treasury.wallets.newestWallet()?.id).toBe(listed[0]?.id);
    expect(Object.keys(treasury.wallets.byNetwork()).sort()).toEqual(['POLYGON', 'SUI']);
    expect(treasury.wallets.withStatus('accepted')).toHaveLength(2);
  });

  it('turns a refusal for a user the tenant does not have into a Refusal', async () => {
    expect(await treasury.wallets.open(randomUUID(), 'usdc', 'POLYGON')).toMatchObject({ refused: true });
  });

  it('reads balances at once, and marks a wallet it cannot find', async () => {
    const [wallet] = await treasury.wallets.refresh(userId);
    await orThrow(run.control.fundWallet({ params: { path: { walletId: wallet!.id } }, body: { amount: 75 } }));
    const report = await treasury.dailyReport(userId);
    expect(report).toMatchObject({ wallets: 2, funded: 1 });
    const { balancesOf } = await import('../src/wallets/balances.js');
    const missing = randomUUID();
    const lines = await balancesOf(treasury.clients, run.tenant.clientId, userId, [wallet!.id, missing]);
    expect(lines).toEqual([
      { walletId: wallet!.id, balance: 75, token: 'USDC' },
      { walletId: missing, missing: true },
    ]);
    await expect(balancesOf(treasury.clients, run.tenant.clientId, randomUUID(), [missing])).rejects.toThrow(/HTTP/);
  });
});

describe('transfers', () => {
  it('sends a transfer between two wallets, lists and sums them', async () => {
    const [a, b] = await treasury.wallets.refresh(userId);
    const id = await treasury.transfers.send(userId, { from: a!.id, to: b!.id, amount: 5 });
    const views = await treasury.transfers.load(userId);
    expect(views.map((v) => v.id)).toContain(id);
    expect(views[0]).not.toHaveProperty('isGroup');
    expect(treasury.transfers.find(id)?.amountSent).toBe(5);
    expect(treasury.transfers.summary()).toMatchObject({ count: 1, total: 5 });
    await orThrow(run.control.completeWalletTransfer({ params: { path: { transferId: id } } }));
    expect((await treasury.transfers.load(userId, 'completed')).map((v) => v.id)).toEqual([id]);
  });
});

describe('payouts', () => {
  const account = async (accepted: boolean) => {
    const { accountId } = await orThrow(
      run.control.createBankAccount({ body: { clientId: run.tenant.clientId, userId, bankName: 'Bancolombia' } }),
    );
    if (accepted) await orThrow(run.control.acceptBankAccount({ params: { path: { accountId } } }));
    return accountId;
  };

  it('pays out, and tells insufficient funds, a refused account and an unknown user apart', async () => {
    await orThrow(run.control.fundUser({ params: { path: { userId } }, body: { amount: 600_000, currency: 'COP' } }));
    const accepted = await account(true);
    expect(await treasury.payouts.pay(userId, 250_000, accepted)).toMatchObject({ kind: 'sent', status: 'PENDING' });
    expect(treasury.payouts.totalPaid()).toBe(250_000);
    expect(await treasury.payouts.pay(userId, 90_000_000, accepted)).toMatchObject({ kind: 'insufficient' });
    expect(await treasury.payouts.pay(userId, 1_000, await account(false))).toMatchObject({ kind: 'refused' });
    expect(await treasury.payouts.pay(randomUUID(), 1_000, accepted)).toMatchObject({ kind: 'forbidden' });
    expect(treasury.payouts.lastResult?.kind).toBe('forbidden');
  });

  it("lists the user's payable accounts", async () => {
    const lines = await treasury.accounts(userId);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({ bank: 'Bancolombia', label: expect.stringContaining('****') });
  });
});

describe('on-ramps', () => {
  it('starts an on-ramp to an outside wallet and remembers its operation', async () => {
    const external = await orThrow(run.control.createExternalWallet({ body: { userId } }));
    const ticket = await treasury.onRamps.start(userId, 400_000, '+573104567890', external.externalWalletId);
    expect(ticket).toMatchObject({ status: 'PENDING_DEPOSIT', escalation: null });
    expect(treasury.onRamps.statusOf((ticket as { operationId: string }).operationId)).toBe('PENDING_DEPOSIT');
  });

  it("says what the service asks first of an on-ramp over the user's tier limit", async () => {
    const external = await orThrow(run.control.createExternalWallet({ body: { userId } }));
    await orThrow(run.control.setTierLimit({ params: { path: { userId } }, body: { maxAmount: 300_000 } }));
    const refused = await treasury.onRamps.start(userId, 400_000, '+573104567890', external.externalWalletId);
    expect(refused).toEqual({ refused: true, action: 'DOC_UPLOAD', message: expect.any(String) });
  });
});

describe('directories', () => {
  it("reads the client's record, its users and the admin lists", async () => {
    const found = await treasury.directory();
    expect(found.userCount).toBeGreaterThan(0);
    expect(found.companyFields.length).toBeGreaterThan(0);
    expect(await service.adminAccounts(treasury.clients)).toBeTypeOf('object');
  });

  it('names a bank by its code', async () => {
    const banks = await orThrow(treasury.clients.business.listBanks());
    expect(await treasury.bankName(banks[0]!.code)).toBe(banks[0]!.name);
    expect(await treasury.bankName('no-such-bank')).toBeUndefined();
  });
});

describe('webhooks', () => {
  let server: Server;
  let url: string;
  const inbox = () => new service.EventInbox();
  let events: ReturnType<typeof inbox>;

  beforeAll(async () => {
    events = inbox();
    server = service.treasuryReceiver(treasury.config.webhookSecret, events, treasury.log);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it.each([
    'fiat.payout.completed',
    'fiat.payout.rejected',
    'fiat.payin.completed',
    'operation.status_updated',
  ] as const)('registers an endpoint for %s and handles the event', async (event) => {
    const endpoint = `${url}/ramp/${event}?secret=${treasury.config.webhookSecret}`;
    expect(await service.registerEndpoint(treasury.clients, event, endpoint, event)).not.toBe('');
    await orThrow(run.control.triggerEvent({ body: { tenantId: run.tenant.clientId, event } }));
    await vi.waitFor(() => expect(events.count(event)).toBe(1), { timeout: 10_000 });
  });

  it("lists the Business API's webhooks and switches one off", async () => {
    const hook = await orThrow(
      run.control.createBusinessWebhook({
        body: { clientId: run.tenant.clientId, url: `${url}/ramp?secret=x`, process: 'ramp' },
      }),
    );
    const urls = await service.webhookUrls(treasury.clients, run.tenant.clientId);
    expect(Object.values(urls)).toContain(`${url}/ramp?secret=x`);
    expect(await service.switchOff(treasury.clients, run.tenant.clientId, String(hook.id))).toBe(true);
    expect(await service.switchOff(treasury.clients, run.tenant.clientId, randomUUID())).toBe(false);
  });
});
