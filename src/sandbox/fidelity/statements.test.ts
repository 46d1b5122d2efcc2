// The source document's statements about what the service answers, tried one by one against a running sandbox.
// Each test is named in ./ledger.ts beside the statements it proves; a statement already proved by another suite
// (resources/flow.test.ts, events/delivery.test.ts, resources/tokens.test.ts) is named there with that suite's test instead.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listOperations } from 'ramp-api/lookup';
import { beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/index.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { sandboxToken } from '../../testing/sandbox-users.js';
import { until } from '../../testing/until.js';
import { readBundleFile } from '../contract/document.js';
import { requestSchema } from '../contract/lookup.js';

const sandbox = useSandbox();
let control: SandboxClient;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `YYYY-MM-DD HH:MM:SS.ffffff`, the source's registerDate format. */
const REGISTER_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
/** An ISO 8601 timestamp with a time zone, as Date.parse reads it back to the same instant. */
const isIsoTimestamp = (text: unknown) =>
  typeof text === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) &&
  !Number.isNaN(Date.parse(text));

/** The v1 description's own registration example, without its fixed external ID, with `changes`. */
function registration(changes: Record<string, unknown> = {}): Record<string, any> {
  const { external_user_id: _fixed, ...body } = structuredClone(
    (readBundleFile('v1') as any).components.examples.RegisterNaturalPerson.value,
  );
  return { ...body, ...changes };
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One tenant of the sandbox, with raw calls on its two families (so a test can send what a typed client refuses). */
async function tenant() {
  const t = await orThrow(control.createTenant({ body: { name: 'Statements' } }));
  const tokens = {
    business: await sandboxToken(sandbox.url, 'business', t.businessCredentials),
    v1: await sandboxToken(sandbox.url, 'v1', t.v1Credentials),
  };
  const call = async (
    family: 'business' | 'v1' | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(sandbox.url + path, {
      method,
      headers: {
        ...(family ? { authorization: `Bearer ${tokens[family]}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const register = (body: Record<string, unknown> = registration(), headers?: Record<string, string>) =>
    call('v1', 'POST', '/api/v1/users/register', body, headers ?? { 'x-integration-register': t.integrationRegister });
  const approvedUser = async (changes: Record<string, unknown> = {}) => {
    const answer = await register(registration(changes));
    expect(answer.status).toBe(201);
    await orThrow(control.approveUser({ params: { path: { userId: answer.body.user_id } } }));
    return answer.body.user_id as string;
  };
  const custody = (userId: string) => `/api/b2b2b/${t.clientId}/wallet/custody/${userId}`;
  const endpoint = (body: Record<string, unknown>) =>
    call('v1', 'POST', '/api/v1/integration-endpoints', {
      name: `endpoint-${crypto.randomUUID()}`,
      direction: 'OUTBOUND',
      url: 'http://127.0.0.1:9/hook',
      httpMethod: 'POST',
      ...body,
    });
  return { ...t, call, register, approvedUser, custody, endpoint };
}

/** An HTTP server on 127.0.0.1 that records each request's headers and answers 204. */
async function recorder() {
  const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, seen, close };
}

beforeAll(() => {
  control = createSandboxClient({ baseUrl: sandbox.url });
});

describe('the two families and their base addresses', () => {
  it('serves the Business API under /api/ with its token at POST /api/token, and the v1 API under /api/v1/ with its token at POST /api/v1/client/token', async () => {
    const t = await tenant();
    for (const [path, credentials] of [
      ['/api/token', t.businessCredentials],
      ['/api/v1/client/token', t.v1Credentials],
    ] as const) {
      const answer = await t.call(null, 'POST', path, credentials);
      expect(answer.status, path).toBe(200);
    }
    expect((await t.call('business', 'GET', `/api/accounts/${t.clientId}`)).status).toBe(200);
    expect((await t.call('v1', 'POST', '/api/v1/integration-endpoints', {})).status).toBe(422);
  });

  it('requires a bearer token on every call but the bank directory, and takes JSON bodies only', async () => {
    const t = await tenant();
    const bare = (method: string, path: string) => fetch(sandbox.url + path, { method });
    expect((await bare('GET', `/api/accounts/${t.clientId}`)).status).toBe(401);
    expect((await bare('GET', `${t.custody(t.clientId)}`)).status).toBe(401);
    expect((await bare('POST', '/api/v1/integration-endpoints')).status).toBe(401);
    expect((await bare('GET', '/api/parameters/banks')).status).toBe(200);
    const notJson = await t.call('business', 'POST', t.custody(t.clientId), 'token=USDC', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(notJson.status).toBe(415);
  });
});

describe('custody wallets', () => {
  it('creates a wallet with 200: accepted, custodial, masked address, the token, network and custodian records, registerDate and owner', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const created = await t.call('business', 'POST', t.custody(userId), { token: 'USDC' });
    expect(created.status).toBe(200);
    const w = created.body;
    expect(w.id).toMatch(UUID);
    expect(w.wallet).toContain('*');
    expect(w.supportedToken).toEqual({ id: expect.any(Number), token: 'USDC', status: expect.any(Boolean) });
    expect(Number.isInteger(w.supportedToken.id)).toBe(true);
    expect(w.supportedNetwork).toEqual({ id: expect.any(Number), name: 'POLYGON', status: expect.any(Boolean) });
    expect(Number.isInteger(w.supportedNetwork.id)).toBe(true);
    expect(w.supportedCustodian).toEqual({
      code: expect.any(String),
      id: expect.any(Number),
      name: expect.any(String),
      status: expect.any(Boolean),
    });
    expect(w.status).toBe('accepted');
    expect(w.isCustodial).toBe(true);
    expect(w.registerDate).toMatch(REGISTER_DATE);
    expect(w.userId).toBe(userId);
    // One custodian, the service itself, for every wallet of every owner.
    const own = await t.call('business', 'POST', t.custody(t.clientId), { token: 'USDT', network: 'SUI' });
    expect(own.body.supportedCustodian).toEqual(w.supportedCustodian);
    expect(own.body.userId).toBe(t.clientId);
  });

  it('creates wallets on POLYGON by default or on SUI, needs a token, and refuses another network', async () => {
    const t = await tenant();
    const path = t.custody(t.clientId);
    expect((await t.call('business', 'POST', path, { token: 'USDC' })).body.supportedNetwork.name).toBe('POLYGON');
    expect((await t.call('business', 'POST', path, { token: 'USDC', network: 'SUI' })).body.supportedNetwork.name).toBe(
      'SUI',
    );
    expect((await t.call('business', 'POST', path, { network: 'SUI' })).status).toBe(400);
    expect((await t.call('business', 'POST', path, { token: 'USDC', network: 'ETHEREUM' })).status).toBe(400);
  });

  it('lists the custody wallets of one owner as an array, addresses masked', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const a = (await t.call('business', 'POST', t.custody(userId), { token: 'USDC' })).body;
    const b = (await t.call('business', 'POST', t.custody(userId), { token: 'USDT' })).body;
    await t.call('business', 'POST', t.custody(t.clientId), { token: 'USDC' });
    const list = await t.call('business', 'GET', t.custody(userId));
    expect(list.status).toBe(200);
    expect(list.body.map((w: any) => w.id).sort()).toEqual([a.id, b.id].sort());
    for (const w of list.body) expect(w.wallet).toMatch(/\*/);
  });

  it('reads a balance as decimal text with its token, live: a deposit shows on the next read', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const wallet = (await t.call('business', 'POST', t.custody(userId), { token: 'USDT' })).body;
    const balance = () => t.call('business', 'GET', `${t.custody(userId)}/${wallet.id}/balance`);
    expect((await balance()).body).toEqual({ balance: '0', token: 'USDT' });
    await orThrow(control.fundWallet({ params: { path: { walletId: wallet.id } }, body: { amount: 1520.75 } }));
    const after = (await balance()).body;
    expect(after.token).toBe('USDT');
    expect(after.balance).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(after.balance)).toBe(1520.75);
  });

  it('refuses the balance of a wallet whose owner is not approved, and reads the client’s own', async () => {
    const t = await tenant();
    const pending = (await t.register()).body.user_id;
    const own = (await t.call('business', 'POST', t.custody(t.clientId), { token: 'USDC' })).body;
    expect((await t.call('business', 'GET', `${t.custody(pending)}/${own.id}/balance`)).status).toBe(403);
    expect((await t.call('business', 'GET', `${t.custody(t.clientId)}/${own.id}/balance`)).status).toBe(200);
  });
});

describe('wallet transfers', () => {
  it('lists transfers with every field of the source in its type, between custody wallet IDs, in pending, completed and cancelled', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const open = async () => (await t.call('business', 'POST', t.custody(userId), { token: 'USDC' })).body;
    const [from, to] = [await open(), await open()];
    await orThrow(control.fundWallet({ params: { path: { walletId: from.id } }, body: { amount: 10 } }));
    const send = async () =>
      (
        await t.call('business', 'POST', `/api/b2b2b/${t.clientId}/wallet/transfer/${userId}`, {
          walletOriginId: from.id,
          walletDestinationId: to.id,
          amount: 1,
        })
      ).body;
    const [done, dropped] = [await send(), await send(), await send()];
    await orThrow(control.completeWalletTransfer({ params: { path: { transferId: done.id } } }));
    await orThrow(control.cancelWalletTransfer({ params: { path: { transferId: dropped.id } } }));
    const list = await t.call('business', 'GET', `/api/b2b2b/${t.clientId}/wallet/transfer/${userId}`);
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => x.status).sort()).toEqual(['cancelled', 'completed', 'pending']);
    for (const x of list.body) {
      for (const key of [
        'id',
        'clientId',
        'originClientId',
        'destinationClientId',
        'walletOriginId',
        'walletDestinationId',
      ])
        expect(x[key], key).toMatch(UUID);
      for (const key of ['walletTransferNumber', 'walletTransferType', 'trackType', 'status', 'operationStatus'])
        expect(typeof x[key], key).toBe('string');
      expect(typeof x.isGroup).toBe('boolean');
      expect(x.parentId === null || typeof x.parentId === 'string').toBe(true);
      expect(typeof x.amountSent).toBe('number');
      expect(typeof x.amountReceived).toBe('number');
      expect([x.symbolTypeSent, x.symbolTypeReceived]).toEqual(['USDC', 'USDC']);
      expect([x.walletOriginId, x.walletDestinationId]).toEqual([from.id, to.id]);
      expect(x.registerDate).toMatch(REGISTER_DATE);
    }
  });

  it('refuses a date filter that is not YYYY-MM-DD', async () => {
    const t = await tenant();
    const path = `/api/b2b2b/${t.clientId}/wallet/transfer/${t.clientId}`;
    expect((await t.call('business', 'GET', `${path}?startDate=2026-01-01&finalDate=2026-12-31`)).status).toBe(200);
    expect((await t.call('business', 'GET', `${path}?startDate=01/02/2026`)).status).toBe(400);
    expect((await t.call('business', 'GET', `${path}?finalDate=2026-13-45`)).status).toBe(400);
  });
});

describe('bank accounts and the bank directory', () => {
  it('lists bank accounts with every field of the source: as registered, in_review at first, accepted after review, metadata empty, the owner', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const own = await orThrow(
      control.createBankAccount({
        body: {
          clientId: t.clientId,
          accountNickname: 'Nómina',
          accountNumber: '0012345678',
          accountHolderName: 'Acme SAS',
        },
      }),
    );
    const users = await orThrow(
      control.createBankAccount({ body: { clientId: t.clientId, userId, accountType: 'corriente' } }),
    );
    await orThrow(control.acceptBankAccount({ params: { path: { accountId: users.accountId } } }));
    const all = await t.call('business', 'GET', `/api/accounts/${t.clientId}`);
    expect(all.status).toBe(200);
    const byId = new Map(all.body.map((a: any) => [a.id, a]));
    expect([...byId.keys()].sort()).toEqual([own.accountId, users.accountId].sort());
    for (const a of all.body) {
      expect(a.id).toMatch(UUID);
      for (const key of ['accountHolderName', 'accountNickname', 'accountNumber'])
        expect(typeof a[key], key).toBe('string');
      expect(['ahorros', 'corriente']).toContain(a.accountType);
      expect(typeof a.bank.name).toBe('string');
      expect(typeof a.countryFiat.symbolFiat).toBe('string');
      expect(typeof a.countryFiat.countryId).toBe('string');
      expect(a.metadata).toEqual([]);
      expect(a.registerDate).toMatch(REGISTER_DATE);
    }
    // The label chosen at registration, and the number as on the certificate (leading zeros kept).
    expect(byId.get(own.accountId)).toMatchObject({
      status: 'in_review',
      userId: t.clientId,
      accountNickname: 'Nómina',
      accountNumber: '0012345678',
      accountHolderName: 'Acme SAS',
    });
    expect(byId.get(users.accountId)).toMatchObject({ status: 'accepted', userId, accountType: 'corriente' });
    const filtered = await t.call('business', 'GET', `/api/accounts/${t.clientId}?userId=${userId}`);
    expect(filtered.body.map((a: any) => a.id)).toEqual([users.accountId]);
  });

  it('answers the bank directory without a token: active banks, id and status as text', async () => {
    const res = await fetch(`${sandbox.url}/api/parameters/banks`);
    expect(res.status).toBe(200);
    const banks = (await res.json()) as any[];
    expect(banks.length).toBeGreaterThan(0);
    for (const bank of banks) {
      expect(Object.keys(bank).sort()).toEqual(['code', 'id', 'name', 'status']);
      expect(typeof bank.id).toBe('string');
      expect(typeof bank.code).toBe('string');
      expect(typeof bank.name).toBe('string');
      expect(bank.status).toBe('true');
    }
  });
});

describe('user registration', () => {
  it('answers a registration with user_id, status success, a message and the record, pending on both statuses', async () => {
    const t = await tenant();
    const answer = await t.register();
    expect(answer.status).toBe(201);
    expect(answer.body.user_id).toMatch(UUID);
    expect(answer.body.status).toBe('success');
    expect(typeof answer.body.message).toBe('string');
    const data = answer.body.data;
    expect(data.status).toBe('pending');
    expect(data.complianceStatus).toBe('pending');
    expect(data.id).toBe(answer.body.user_id);
    expect(typeof data.isVip).toBe('boolean');
    expect(data.tradeName === null || typeof data.tradeName === 'string').toBe(true);
    expect(data.clientType === null || typeof data.clientType === 'string').toBe(true);
    expect(isIsoTimestamp(data.constitutionDate)).toBe(true);
    expect(data.constitutionCountryId === null || typeof data.constitutionCountryId === 'string').toBe(true);
    expect(typeof data.constitutionCity).toBe('string');
    expect(typeof data.constitutionState).toBe('string');
    expect(Array.isArray(data.countriesOperation)).toBe(true);
  });

  it('answers the person with a lowercase document type, the second surname in lastName and the second given name in middleName, and pep', async () => {
    const t = await tenant();
    const person = (await t.register(registration({ is_pep: true }))).body.data.person;
    expect(person.id).toMatch(UUID);
    expect(person.isJuridic === null || typeof person.isJuridic === 'boolean').toBe(true);
    expect(person).toMatchObject({
      identificationType: 'cc',
      identificationNro: '1036654321',
      firstName: 'Laura',
      middleName: 'Marcela',
      firstSurname: 'Gómez',
      lastName: 'Restrepo',
      pep: true,
    });
    for (const key of ['contactsData', 'additionalInfo', 'personFiles', 'persons'])
      expect(Array.isArray(person[key]), key).toBe(true);
  });

  it('answers contactsData with the e-mail and the phone in international format, whatever format the phone was sent in', async () => {
    const t = await tenant();
    for (const sent of ['+573104567890', '3104567890', '310 456 7890', '573104567890']) {
      const person = (await t.register(registration({ cell_phone_number: sent }))).body.data.person;
      const contacts = person.contactsData;
      expect(contacts.map((c: any) => c.dataTypeContact).sort()).toEqual(['email', 'phone']);
      for (const c of contacts) {
        expect(typeof c.isVerified).toBe('boolean');
        expect(c.personId).toBe(person.id);
      }
      expect(contacts.find((c: any) => c.dataTypeContact === 'email').dataValue).toBe('laura.gomez@correo.example');
      expect(contacts.find((c: any) => c.dataTypeContact === 'phone').dataValue, sent).toBe('+573104567890');
    }
  });

  it('answers additionalInfo with the on-ramp and off-ramp multipliers, typed number, of the person', async () => {
    const t = await tenant();
    const person = (await t.register()).body.data.person;
    const info = person.additionalInfo;
    expect(info.map((i: any) => i.additionalInfoTypeSku).sort()).toEqual(['offrampmultiplier', 'onrampmultiplier']);
    for (const i of info) {
      expect(i.infoType).toBe('number');
      expect(typeof i.infoName).toBe('string');
      expect(Number.isFinite(Number(i.infoValue))).toBe(true);
      expect(i.personId).toBe(person.id);
    }
  });

  it('refuses a registration missing any field the source marks required', async () => {
    const t = await tenant();
    // The fields the v1 description requires of registerUser, which openapi/v1/v1.test.ts holds to the source's list.
    const v1 = readBundleFile('v1');
    const registerUser = listOperations(v1).find((entry) => entry.operationId === 'registerUser')!;
    const required = requestSchema(v1, registerUser).required as string[];
    expect(required.length).toBeGreaterThan(20);
    for (const field of required) {
      const { [field]: _dropped, ...body } = registration();
      expect((await t.register(body)).status, field).toBe(422);
    }
    for (const field of ['neighborhood', 'address_home', 'country_home', 'city_home', 'department']) {
      const body = registration();
      delete body.home_info[field];
      expect((await t.register(body)).status, `home_info.${field}`).toBe(422);
    }
    for (const [field, inner] of [
      ['incomes', 'monthly_incomes'],
      ['expenses', 'month_expenses'],
    ] as const) {
      const body = registration();
      delete body[field][inner];
      expect((await t.register(body)).status, `${field}.${inner}`).toBe(422);
    }
  });

  it('takes blank second names, leaves the optional fields optional, and refuses a bad e-mail, a date not YYYY-MM-DD or a document type other than CC', async () => {
    const t = await tenant();
    const example = (readBundleFile('v1') as any).components.examples.RegisterPersonWithoutSecondNames.value;
    const minimal = await t.register(example);
    expect(minimal.status).toBe(201);
    expect(minimal.body.data.person).toMatchObject({ middleName: '', lastName: '' });
    const withExternal = crypto.randomUUID();
    expect((await t.register(registration({ external_user_id: withExternal }))).status).toBe(201);
    expect((await t.register(registration({ external_user_id: 'not-a-uuid' }))).status).toBe(422);
    expect((await t.register(registration({ email: 'laura.gomez' }))).status).toBe(422);
    expect((await t.register(registration({ birth_date: '23/04/1991' }))).status).toBe(422);
    expect((await t.register(registration({ document_issue_date: '2009-5-12' }))).status).toBe(422);
    expect((await t.register(registration({ document_type: 'TI' }))).status).toBe(422);
    expect((await t.register(registration({ is_pep: 'no' }))).status).toBe(422);
    expect((await t.register(registration({ total_assets: '180000000' }))).status).toBe(422);
  });
});

describe('KYC links', () => {
  it('answers { url } for a user, with or without template_id and custom_metadata_name, and takes no body', async () => {
    const t = await tenant();
    const userId = (await t.register()).body.user_id;
    const base = `/api/v1/provider/kyc/user/generateurl/${userId}`;
    for (const path of [base, `${base}?template_id=tpl-1&custom_metadata_name=onboarding`]) {
      const answer = await t.call('v1', 'POST', path);
      expect(answer.status, path).toBe(200);
      expect(Object.keys(answer.body)).toEqual(['url']);
      expect(() => new URL(answer.body.url)).not.toThrow();
    }
  });
});

describe('users from the admin users list', () => {
  it('takes an ID from the admin users list as the user_id of the KYC link, payout and on-ramp calls', async () => {
    const t = await tenant();
    await t.approvedUser();
    const listed = await t.call('v1', 'GET', '/api/v1/admin/users');
    expect(listed.status).toBe(200);
    const userId: string = listed.body.users[0].id;
    expect((await t.call('v1', 'POST', `/api/v1/provider/kyc/user/generateurl/${userId}`)).status).toBe(200);
    const { accountId } = await orThrow(control.createBankAccount({ body: { clientId: t.clientId, userId } }));
    await orThrow(control.acceptBankAccount({ params: { path: { accountId } } }));
    await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 10, currency: 'COP' } }));
    const payout = await t.call('v1', 'POST', `/api/v1/admin/fiats/${userId}/payout`, {
      amount: 10,
      currency: 'COP',
      destinationId: accountId,
    });
    expect(payout.status).toBe(201);
    const wallet = await orThrow(control.createExternalWallet({ body: { userId } }));
    const onRamp = await t.call('v1', 'POST', `/api/v1/admin/fiats/${userId}/onramp`, {
      amount: 1000,
      destination: { type: 'EXTERNAL', externalWalletId: wallet.externalWalletId },
    });
    expect(onRamp.status).toBe(201);
  });
});

describe('payouts', () => {
  it('creates a payout PENDING with id, currency, amount and the rail, debited from the user’s balance, to an accepted account only', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const { accountId } = await orThrow(control.createBankAccount({ body: { clientId: t.clientId, userId } }));
    await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1000, currency: 'COP' } }));
    const payout = (body: Record<string, unknown>) =>
      t.call('v1', 'POST', `/api/v1/admin/fiats/${userId}/payout`, {
        amount: 400,
        currency: 'COP',
        destinationId: accountId,
        ...body,
      });
    expect((await payout({})).status).toBe(422); // the account is still in review
    await orThrow(control.acceptBankAccount({ params: { path: { accountId } } }));
    const created = await payout({ paymentMethod: 'ACH' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      status: 'PENDING',
      currency: 'COP',
      amount: 400,
      paymentMethod: 'ACH',
    });
    const defaulted = await payout({});
    expect(defaulted.body.status).toBe('PENDING');
    expect(typeof defaulted.body.paymentMethod).toBe('string');
    // 1000 - 400 - 400 left 200: the balance is the debit source.
    expect((await payout({ amount: 201 })).status).toBe(400);
    expect((await payout({ amount: 200 })).status).toBe(201);
  });

  it('refuses a payout without amount, currency or destinationId', async () => {
    const t = await tenant();
    const userId = await t.approvedUser();
    const full = { amount: 1, currency: 'COP', destinationId: crypto.randomUUID() };
    for (const field of ['amount', 'currency', 'destinationId']) {
      const { [field as keyof typeof full]: _dropped, ...body } = full;
      expect((await t.call('v1', 'POST', `/api/v1/admin/fiats/${userId}/payout`, body)).status, field).toBe(422);
    }
  });
});

describe('on-ramps', () => {
  async function onRampTenant() {
    const t = await tenant();
    const userId = await t.approvedUser();
    const wallet = await orThrow(control.createExternalWallet({ body: { userId } }));
    const onRamp = (body: Record<string, unknown>) =>
      t.call('v1', 'POST', `/api/v1/admin/fiats/${userId}/onramp`, {
        amount: 200_000,
        destination: { type: 'EXTERNAL', externalWalletId: wallet.externalWalletId },
        ...body,
      });
    return { t, userId, wallet, onRamp };
  }

  it('answers operation, tierEscalation null and depositInfo, the operation with every field of the source: COP paid, the stablecoin to the external wallet', async () => {
    const { userId, wallet, onRamp } = await onRampTenant();
    const answer = await onRamp({ symbolOrigin: 'COP', symbolDestination: 'USDC', developerFee: 1000 });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['depositInfo', 'operation', 'tierEscalation']);
    expect(answer.body.tierEscalation).toBeNull();
    const op = answer.body.operation;
    for (const key of [
      'id',
      'userId',
      'numberCode',
      'originId',
      'destinationId',
      'symbolOrigin',
      'symbolDestination',
      'amountOrigin',
      'amountDestination',
      'rate',
      'paymentMethod',
      'status',
      'direction',
      'registerDate',
      'depositInstructions',
      'treasuryItems',
      'events',
    ])
      expect(op, key).toHaveProperty(key);
    expect(op).toMatchObject({ userId, symbolOrigin: 'COP', symbolDestination: 'USDC', amountOrigin: 200_000 });
    expect(op.destinationId).toBe(wallet.externalWalletId);
    expect(Array.isArray(op.treasuryItems)).toBe(true);
    expect(Array.isArray(op.events)).toBe(true);
    const info = answer.body.depositInfo;
    expect(info.paymentMethod).toBe(op.paymentMethod);
    expect(info).toHaveProperty('depositInstructions');
    expect(info.quote).toMatchObject({ rate: op.rate, amountDestination: op.amountDestination });
  });

  it('pays by DAVIPLATA and executes NORMAL by default, takes PSE with a bankCode and NEQUI with a phone, and refuses an on-ramp without amount or destination or with a method, mode or destination type not listed', async () => {
    const { onRamp } = await onRampTenant();
    const plain = await onRamp({});
    expect(plain.body.operation.paymentMethod).toBe('DAVIPLATA');
    expect(plain.body.depositInfo).not.toBeNull(); // NORMAL: the user sends funds
    const pse = await onRamp({
      paymentMethod: 'PSE',
      bankCode: '1007',
      bankName: 'Bancolombia',
      redirectUrl: 'https://shop.example/back',
    });
    expect(pse.status).toBe(201);
    expect(pse.body.operation.paymentMethod).toBe('PSE');
    expect((await onRamp({ paymentMethod: 'NEQUI', phone: '+573001234567' })).body.operation.paymentMethod).toBe(
      'NEQUI',
    );
    expect((await onRamp({ amount: undefined })).status).toBe(422);
    expect((await onRamp({ destination: undefined })).status).toBe(422);
    expect((await onRamp({ paymentMethod: 'EFECTY' })).status).toBe(422);
    expect((await onRamp({ executionMode: 'LATER' })).status).toBe(422);
    expect((await onRamp({ destination: { type: 'INTERNAL', externalWalletId: crypto.randomUUID() } })).status).toBe(
      422,
    );
  });

  it('takes for PSE a bankCode from the admin banks list, and refuses one that is not in it', async () => {
    const { t, onRamp } = await onRampTenant();
    const listed = await t.call('v1', 'GET', '/api/v1/admin/banks');
    expect(listed.status).toBe(200);
    const codes: string[] = listed.body.banks.map((b: { code: string }) => b.code);
    for (const bankCode of codes) expect((await onRamp({ paymentMethod: 'PSE', bankCode })).status, bankCode).toBe(201);
    expect((await onRamp({ paymentMethod: 'PSE', bankCode: '0000' })).status).toBe(422);
  });

  it('sends the user back to the redirectUrl after paying by PSE', async () => {
    const { onRamp } = await onRampTenant();
    const pse = await onRamp({ paymentMethod: 'PSE', bankCode: '1007', redirectUrl: 'https://shop.example/back' });
    expect(pse.status).toBe(201);
    const checkoutUrl = new URL(pse.body.depositInfo.depositInstructions.checkoutUrl);
    const checkoutId = checkoutUrl.pathname.split('/').at(-1)!;
    const paid = await orThrow(control.payCheckout({ params: { path: { checkoutId } } }));
    expect(paid).toMatchObject({ operationId: pse.body.operation.id, redirectUrl: 'https://shop.example/back' });
  });

  it('answers a tierEscalation with actionType, actionPayload, message and expiresAt when the on-ramp exceeds the tier', async () => {
    const { userId, onRamp } = await onRampTenant();
    await orThrow(control.setTierLimit({ params: { path: { userId } }, body: { maxAmount: 1000 } }));
    const over = await onRamp({ amount: 1001 });
    expect(over.status).toBe(422);
    const escalation = over.body.tierEscalation;
    expect(['FORM_URL', 'QR_APP', 'VIDEO_KYC', 'DOC_UPLOAD', 'NOTIFY_ONLY', 'BLOCK']).toContain(escalation.actionType);
    expect(escalation).toHaveProperty('actionPayload');
    expect(typeof escalation.message).toBe('string');
    expect(typeof escalation.expiresAt).toBe('string');
  });
});

describe('webhooks and integration endpoints', () => {
  it('deactivates a webhook: the answer is the webhook with id, method, process, status false, url and owner, its configuration kept', async () => {
    const t = await tenant();
    const hook = await orThrow(
      control.createBusinessWebhook({
        body: { clientId: t.clientId, url: 'http://127.0.0.1:9/business', process: 'wallet_transfer' },
      }),
    );
    // The webhook_id comes from the list of webhooks.
    const listed = await t.call('business', 'GET', `/api/webhooks/${t.clientId}`);
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([hook.id]);
    const deleted = await t.call('business', 'DELETE', `/api/webhooks/${t.clientId}/${listed.body.webhooks[0].id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      id: hook.id,
      method: 'POST',
      process: 'wallet_transfer',
      status: false,
      url: 'http://127.0.0.1:9/business',
      userId: t.clientId,
    });
    const after = await t.call('business', 'GET', `/api/webhooks/${t.clientId}`);
    expect(after.body.webhooks).toEqual([deleted.body]);
    expect((await t.call('business', 'DELETE', `/api/webhooks/${t.clientId}/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('registers an endpoint: the answer is id, isActive as sent and registerDate, an ISO 8601 timestamp of the creation', async () => {
    const t = await tenant();
    const { now } = await orThrow(control.getClock());
    const active = await t.endpoint({ requestHeaders: null, payloadMapping: null, isActive: true, authType: 'NONE' });
    expect(active.status).toBe(201);
    expect(Object.keys(active.body).sort()).toEqual(['id', 'isActive', 'registerDate']);
    expect(active.body.id).toMatch(UUID);
    expect(active.body.isActive).toBe(true);
    expect(isIsoTimestamp(active.body.registerDate)).toBe(true);
    expect(Math.abs(Date.parse(active.body.registerDate) - Date.parse(now))).toBeLessThan(60_000);
    expect((await t.endpoint({ isActive: false })).body.isActive).toBe(false);
  });

  it('refuses an endpoint without name, direction, url or httpMethod, another direction or method, a url over 500 characters, an unknown event, and a name used before', async () => {
    const t = await tenant();
    for (const field of ['name', 'direction', 'url', 'httpMethod']) {
      const body: Record<string, unknown> = {
        name: `n-${field}`,
        direction: 'OUTBOUND',
        url: 'http://127.0.0.1:9/h',
        httpMethod: 'POST',
      };
      delete body[field];
      expect((await t.call('v1', 'POST', '/api/v1/integration-endpoints', body)).status, field).toBe(422);
    }
    expect((await t.endpoint({ direction: 'INBOUND' })).status).toBe(422);
    expect((await t.endpoint({ httpMethod: 'GET' })).status).toBe(422);
    const at = (length: number) => `http://127.0.0.1:9/${'a'.repeat(length - 'http://127.0.0.1:9/'.length)}`;
    expect((await t.endpoint({ url: at(500) })).status).toBe(201);
    expect((await t.endpoint({ url: at(501) })).status).toBe(422);
    expect((await t.endpoint({ triggerEvent: 'user.deleted' })).status).toBe(422);
    expect((await t.endpoint({ name: 'taken' })).status).toBe(201);
    expect((await t.endpoint({ name: 'taken' })).status).toBe(409);
  });

  it('takes every event of the source as triggerEvent', async () => {
    const t = await tenant();
    const events = [
      'user.accepted_terms',
      'user.canceled',
      'user.created',
      'user.updated',
      'auth.otp_requested',
      'operation.created',
      'operation.status_updated',
      'operation.transfer.created',
      'operation.transfer.status_updated',
      'wallet.created',
      'fiat.payin.completed',
      'fiat.payout.completed',
      'fiat.payment.completed',
      'fiat.payin.rejected',
      'fiat.payout.rejected',
    ];
    for (const triggerEvent of events) expect((await t.endpoint({ triggerEvent })).status, triggerEvent).toBe(201);
  });

  it('calls an endpoint registered without authType with POST and no credentials, only for its triggerEvent', async () => {
    const t = await tenant();
    const target = await recorder();
    try {
      expect((await t.endpoint({ url: `${target.url}/ramp`, triggerEvent: 'fiat.payout.completed' })).status).toBe(201);
      await orThrow(control.triggerEvent({ body: { tenantId: t.clientId, event: 'fiat.payout.rejected' } }));
      await orThrow(control.triggerEvent({ body: { tenantId: t.clientId, event: 'fiat.payout.completed' } }));
      await sandbox.events.worker.idle();
      expect(target.seen).toHaveLength(1);
      expect(target.seen[0]!.method).toBe('POST');
      expect(target.seen[0]!.headers.authorization).toBeUndefined();
      expect(target.seen[0]!.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await target.close();
    }
  });
});

describe('delivery on an endpoint’s own timeoutMs and retryConfig', () => {
  // A sandbox whose real clock stands still: sandbox time moves only by advanceClock, so attempt times are exact.
  const still = useSandbox({ realNow: () => Date.parse('2026-01-01T00:00:00.000Z') });
  let stillControl: SandboxClient;
  beforeAll(() => {
    stillControl = createSandboxClient({ baseUrl: still.url });
  });

  it('counts a call unanswered within timeoutMs as failed, and retries up to max_attempts calls, the first after initial_delay_ms and each later delay times multiplier', async () => {
    const t = await orThrow(stillControl.createTenant({ body: { name: 'Schedule' } }));
    const token = await sandboxToken(still.url, 'v1', t.v1Credentials);
    // The first call is left unanswered; every later one answers 500.
    let calls = 0;
    const server = createServer((_req, res) => {
      calls += 1;
      if (calls > 1) res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ramp`;
    try {
      const registered = await fetch(`${still.url}/api/v1/integration-endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'own schedule',
          direction: 'OUTBOUND',
          url,
          httpMethod: 'POST',
          triggerEvent: 'wallet.created',
          timeoutMs: 2000,
          retryConfig: { max_attempts: 4, initial_delay_ms: 500, multiplier: 3 },
        }),
      });
      expect(registered.status).toBe(201);
      const { id } = (await registered.json()) as { id: string };
      await orThrow(stillControl.triggerEvent({ body: { tenantId: t.clientId, event: 'wallet.created' } }));
      // A pass of the worker at the new time; `settle` false while a call is left unanswered, as the worker is not
      // idle until that call times out.
      const advance = async (ms: number, settle = true) => {
        await orThrow(stillControl.advanceClock({ body: { seconds: ms / 1000 } }));
        await (settle ? still.events.worker.idle() : still.events.worker.kick());
      };
      const attempts = async () =>
        (await orThrow(stillControl.listDeliveries({ params: { query: { endpoint: id } } }))).deliveries[0]!;
      await until(() => calls === 1, 'the first call');
      await advance(1999, false);
      expect((await attempts()).attempts).toHaveLength(0); // the first call is still waiting for its answer
      await advance(1); // timeoutMs has passed: that call failed
      for (const delay of [500, 1500, 4500]) {
        await advance(delay - 1);
        const before = (await attempts()).attempts.length;
        await advance(1);
        expect((await attempts()).attempts.length, `the retry ${delay} ms after the last`).toBe(before + 1);
      }
      await advance(60_000);
      const delivery = await attempts();
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.map((a) => a.outcome)).toEqual(['timeout', 'http_status', 'http_status', 'http_status']);
      const log = delivery.attempts;
      expect(Date.parse(log[0]!.finishedAt) - Date.parse(log[0]!.time)).toBe(2000);
      for (let i = 1; i < log.length; i++)
        expect(Date.parse(log[i]!.time) - Date.parse(log[i - 1]!.finishedAt), `retry ${i}`).toBe(500 * 3 ** (i - 1));
      expect(calls).toBe(4);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
