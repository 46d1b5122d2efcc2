// The usage extractor follows an answer to where it is read, as a consuming service's code moves it: through a
// generic helper, mapped and indexed types, keys known only at run time, code outside the project, a class's
// fields, closures, Promise.all and functions in other modules. Each read is given to the operation whose answer
// flows to it, not to every operation whose schema holds the field, and each status to the call whose answer it
// tells apart (the guides' `instanceof ApiError` pattern and `switch (res.response.status)` included).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractTestUsage, makeUsageProject } from '../../testing/usage-project.js';
import type { UsageFile } from './usage-file.js';

const FILES: Record<string, string> = {
  'node_modules/tiny-expect/package.json': JSON.stringify({ name: 'tiny-expect', types: 'index.d.ts' }),
  'node_modules/tiny-expect/index.d.ts': `export declare function expect<T>(actual: T): {
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
};
`,
  'src/clients.ts': `import { createBusinessClient, createV1Client } from 'ramp-api';
export const business = createBusinessClient({ baseUrl: 'http://127.0.0.1:9', auth: { token: 't' } });
export const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:9', auth: { token: 't' } });
export type Wallet = import('ramp-api/business').components['schemas']['CustodyWallet'];
`,
  'src/sorting.ts': `export function newestFirst<T extends { registerDate: unknown }>(items: T[]): T[] {
  return [...items].sort((a, b) => String(b.registerDate).localeCompare(String(a.registerDate))); // read:generic
}
`,
  'src/wallets.ts': `import { orThrow } from 'ramp-api';
import { business, type Wallet } from './clients.js';
import { newestFirst } from './sorting.js';
import { describeNetwork } from './network.js';
type Brief = Pick<Wallet, 'id' | 'status'>;
const briefly = (wallet: Brief) => wallet.status; // read:pick
export class WalletBook {
  private wallets: Wallet[] = [];
  constructor(private readonly userId: string) {}
  owner() {
    return this.userId; // read:this-field
  }
  async load(clientId: string, userId: string) {
    this.wallets = newestFirst(await orThrow(business.listCustodyWallets({ params: { path: { clientId, userId } } })));
    const created = await orThrow(business.createCustodyWallet({ params: { path: { clientId, userId } }, body: { token: 'USDC', network: 'POLYGON' } }));
    return created.id; // read:created-id
  }
  custodial() {
    return this.wallets.filter((w) => w.isCustodial).map(briefly); // read:class-field
  }
  networks() {
    const named = (id: string) => this.wallets.find((w) => w.id === id); // read:closure
    return [named('x')?.supportedNetwork.status, ...this.wallets.map((w) => describeNetwork(w.supportedNetwork))]; // read:network-status
  }
  field(key: keyof Wallet) {
    return this.wallets[0]?.[key]; // whole:computed
  }
}
`,
  'src/network.ts': `import type { Wallet } from './clients.js';
export function describeNetwork(network: Wallet['supportedNetwork']): string {
  return network.name; // read:indexed-type
}
`,
  'src/escapes.ts': `import { orThrow } from 'ramp-api';
import { expect } from 'tiny-expect';
import { business } from './clients.js';
export async function balances(clientId: string, userId: string, walletId: string) {
  const balance = await orThrow(business.getCustodyWalletBalance({ params: { path: { clientId, userId, walletId } } }));
  const entries = Object.entries(balance); // whole:object-entries
  const transfers = await orThrow(business.listWalletTransfers({ params: { path: { clientId, userId } } }));
  for (const key in transfers[0]) entries.push([key, '']); // whole:for-in
  expect(await orThrow(business.listBankAccounts({ params: { path: { clientId } } }))).toMatchObject([]); // whole:matcher
  const copy = structuredClone(await orThrow(business.listBanks())); // whole:outside
  return [entries, copy];
}
export async function both(clientId: string, userId: string) {
  const path = { clientId, userId };
  const [listed, created] = await Promise.all([
    orThrow(business.listCustodyWallets({ params: { path } })),
    orThrow(business.createCustodyWallet({ params: { path }, body: { token: 'USDC', network: 'POLYGON' } })),
  ]);
  return [listed[0]?.supportedToken.status, created.userId]; // read:promise-all
}
`,
  'src/open.ts': `import { orThrow } from 'ramp-api';
import { business } from './clients.js';
type Company = { legalName?: string };
function audit(fields: Record<string, unknown>) {
  return Object.keys(fields).length;
}
export async function company() {
  const info = await orThrow(business.getClientInfo());
  const users = await orThrow(business.listClientUsers({ params: { path: { clientId: 'c' } } }));
  const hooks = await orThrow(business.listWebhooks({ params: { path: { clientId: 'c' } } }));
  return [info.companyName, (users as Company).legalName, audit({ hooks })]; // read:open
}
`,
  'src/unsure.ts': `import { orThrow } from 'ramp-api';
import { business, type Wallet } from './clients.js';
interface Sink {
  take(wallet: Wallet): string;
}
class CustodianSink implements Sink {
  take(wallet: Wallet) {
    return wallet.supportedCustodian.name; // read:through-interface
  }
}
export async function fill(sink: Sink, direct: CustodianSink, clientId: string, userId: string) {
  const path = { clientId, userId };
  const listed = await orThrow(business.listCustodyWallets({ params: { path } }));
  const byId: Record<string, Wallet> = { first: listed[0]! };
  byId.latest = await orThrow(business.createCustodyWallet({ params: { path }, body: { token: 'USDC', network: 'POLYGON' } }));
  return [direct.take(listed[0]!), sink.take(byId.latest), byId.latest.supportedCustodian.code]; // read:index-signature
}
`,
  'src/accounts.ts': `import { orThrow } from 'ramp-api';
import { createSandboxClient } from 'ramp-api/sandbox';
const control = createSandboxClient({ baseUrl: 'http://127.0.0.1:9' });
export async function acceptedAccount(clientId: string) {
  const account = await orThrow(control.createBankAccount({ body: { clientId } }));
  await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } })); // read:account-id
  return account.status;
}
`,
  'src/statuses.ts': `import { ApiError, orThrow } from 'ramp-api';
import { v1 } from './clients.js';
export async function pay(userId: string) {
  const banks = await v1.listAdminBanks();
  try {
    await orThrow(v1.createPayout({ params: { path: { user_id: userId } }, body: { amount: 5, currency: 'COP', destinationId: 'd' } }));
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return (e.body as { message?: string }).message; // status:api-error
    throw e;
  }
  const link = await v1.generateKycUrl({ params: { path: { user_id: userId } } });
  switch (link.response.status) {
    case 404: // status:switch
      return banks.data;
  }
  return link.data?.url;
}
`,
};

let dir: string;
let usage: UsageFile;
const op = (operationId: string) => usage.operations.find((o) => o.operationId === operationId)!;
const pointers = (operationId: string) => op(operationId).responseFields.map((f) => f.pointer);
const wholes = (operationId: string) =>
  op(operationId)
    .responseFields.filter((f) => f.whole)
    .map((f) => f.pointer);
const W = '/components/schemas/CustodyWallet/properties';

beforeAll(async () => {
  dir = makeUsageProject('flow-consumer', FILES);
  usage = (await extractTestUsage(dir)).usage;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reads are followed to the operation whose answer flows to them', () => {
  it('a field read only inside a generic helper, through its constraint, at each instantiation', () => {
    expect(pointers('listCustodyWallets')).toContain(`${W}/registerDate`);
  });

  it('Pick of a schema, an indexed type, a class field, a closure', () => {
    expect(pointers('listCustodyWallets')).toEqual(
      expect.arrayContaining([
        `${W}/status`,
        `${W}/isCustodial`,
        `${W}/id`,
        '/components/schemas/SupportedNetwork/properties/name',
      ]),
    );
  });

  it('a read through one operation is not given to another whose answer holds the same schema', () => {
    expect(pointers('listCustodyWallets')).toContain('/components/schemas/SupportedNetwork/properties/status');
    expect(pointers('createCustodyWallet')).not.toContain('/components/schemas/SupportedNetwork/properties/status');
    expect(pointers('createCustodyWallet')).not.toContain(`${W}/isCustodial`);
  });

  it("the sandbox's control API: the account created is read, the account accepted is not", () => {
    expect(pointers('createBankAccount')).toEqual([
      '/components/schemas/SandboxBankAccount/properties/accountId',
      '/components/schemas/SandboxBankAccount/properties/status',
    ]);
    expect(pointers('acceptBankAccount')).toEqual([]);
  });

  it('Promise.all: each result to its own operation', () => {
    expect(pointers('listCustodyWallets')).toContain('/components/schemas/SupportedToken/properties/status');
    expect(pointers('createCustodyWallet')).not.toContain('/components/schemas/SupportedToken/properties/status');
    expect(pointers('createCustodyWallet')).toContain(`${W}/userId`);
    expect(pointers('listCustodyWallets')).not.toContain(`${W}/userId`);
  });
});

describe('where the flow is only partly seen, the read goes to every operation it may come from', () => {
  it('a method also called through the interface its class implements', () => {
    expect(pointers('createCustodyWallet')).toContain('/components/schemas/SupportedCustodian/properties/name');
  });

  it('a value put into a container through an index signature after its declaration', () => {
    expect(pointers('createCustodyWallet')).toContain('/components/schemas/SupportedCustodian/properties/code');
  });
});

describe('a value whose fields cannot be followed is recorded whole', () => {
  it('a key known only at run time (`v[key]`, for...in)', () => {
    expect(wholes('listCustodyWallets')).toContain('/components/schemas/CustodyWallet');
    expect(wholes('listWalletTransfers')).toContain('/components/schemas/WalletTransfer');
  });

  it('Object.entries, a test matcher and other code outside the project', () => {
    expect(wholes('getCustodyWalletBalance')).toContain('/components/schemas/CustodyWalletBalance');
    expect(wholes('listBankAccounts')).toContain('/components/schemas/BankAccount');
    expect(wholes('listBanks')).toContain('/components/schemas/Bank');
  });
});

describe('open objects and values handed to a type of the project', () => {
  it("a field of an open object, read through the client's mapped types", () => {
    expect(pointers('getClientInfo')).toContain('/components/schemas/ClientInfo/properties/companyName');
  });

  it('a cast to a type of the project, or a value put where Record<string, unknown> is taken, is used whole', () => {
    expect(wholes('listClientUsers')).toContain('/components/schemas/ClientUserList');
    expect(wholes('listWebhooks')).toContain('/components/schemas/WebhookList');
  });
});

describe('statuses belong to the call whose answer they tell apart', () => {
  it('instanceof ApiError and e.status around orThrow', () => {
    expect(op('createPayout').statuses).toEqual(['422']);
  });

  it("an ApiError's body is the error answer of the calls it comes from, used whole", () => {
    expect(wholes('createPayout')).toContain('/components/schemas/ErrorBody');
    expect(wholes('listAdminBanks')).not.toContain('/components/schemas/ErrorBody');
  });

  it('switch (res.response.status), and no status for a call in the same function that tells none apart', () => {
    expect(op('generateKycUrl').statuses).toEqual(['404']);
    expect(op('listAdminBanks').statuses).toEqual([]);
  });
});
