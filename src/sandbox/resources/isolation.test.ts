// Tenant isolation, tested as an attacker would. Two tenants, A and B, each with every kind of
// record. With B's tokens, every operation of every bundle that takes an identifier (path, query or body) is
// called once per identifier with A's value in it, and once with an unknown value: the two answers must be
// the same refusal (or the same empty list), carry nothing of A, and A's records must be exactly as they were.
// The operations and their identifiers come from the bundles: an identifier this file cannot fill with one of
// A's records fails the test, so a new operation cannot slip through untested.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JsonObject, listOperations, type OperationEntry, resolveRef } from 'ramp-api/lookup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { storesUnderTest, useSandbox } from '../../testing/sandbox-fixture.js';
import { registerExampleUser, sandboxToken } from '../../testing/sandbox-users.js';
import { type OpenApiDocument, readBundleFile } from '../contract/document.js';
import { bodyExamples, operationById } from '../contract/lookup.js';
import { REFUSALS } from '../core/refusals.js';
import { SANDBOX_FAMILIES } from '../server.js';

const ADMIN_TOKEN = `adm_${randomUUID()}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One tenant's records, and the texts that must never reach another tenant. */
interface Records {
  clientId: string;
  businessSecret: string;
  v1Secret: string;
  integrationRegister: string;
  businessToken: string;
  v1Token: string;
  userId: string;
  walletId: string;
  walletId2: string;
  transferId: string;
  accountId: string;
  payoutId: string;
  onRampId: string;
  externalWalletId: string;
  webhookId: string;
  endpointId: string;
  deliveryId: string;
  /** The test's own receiver, where the tenant's webhooks and endpoints point. */
  receiverUrl: string;
  /** Everything of the tenant that is not an ID: names, e-mail, document, account number, wallet address, URLs. */
  data: string[];
}
type IdKey = Exclude<
  keyof Records,
  'data' | 'receiverUrl' | 'businessSecret' | 'v1Secret' | 'integrationRegister' | 'businessToken' | 'v1Token'
>;

/**
 * Which record an identifier names, by the name the description gives it. A name missing here makes the
 * sweep fail: the new identifier must be given one of A's records before it can pass.
 */
const RECORD_OF: Record<string, IdKey> = {
  clientId: 'clientId',
  tenant: 'clientId',
  tenantId: 'clientId',
  userId: 'userId',
  user_id: 'userId',
  external_user_id: 'userId',
  walletId: 'walletId',
  originWallet: 'walletId',
  walletOriginId: 'walletId',
  walletDestinationId: 'walletId',
  transferId: 'transferId',
  accountId: 'accountId',
  destinationId: 'accountId',
  payoutId: 'payoutId',
  operationId: 'onRampId',
  externalWalletId: 'externalWalletId',
  webhook_id: 'webhookId',
  endpoint: 'endpointId',
  deliveryId: 'deliveryId',
};

/** Bodies the description does not show (the sandbox's own, or credentials): their identifiers, and a body of the caller's own. */
const OWN_BODIES: Record<string, { ids: string[]; body: (t: Records) => JsonObject }> = {
  createToken: { ids: ['clientId'], body: (t) => ({ clientId: t.clientId, clientSecret: t.businessSecret }) },
  createClientToken: { ids: ['clientId'], body: (t) => ({ clientId: t.clientId, clientSecret: t.v1Secret }) },
  createWalletTransfer: {
    ids: ['walletOriginId', 'walletDestinationId'],
    body: (t) => ({ walletOriginId: t.walletId, walletDestinationId: t.walletId2, amount: 1 }),
  },
};

/**
 * Identifiers the caller chooses for a new record. IDs are one namespace across tenants (the sandbox's own
 * choice), so one that another tenant holds is refused as taken, where an unused one creates the record:
 * the refusal must still carry nothing of A and change nothing of A.
 */
const CHOSEN_IDS = new Set(['registerUser body.external_user_id', 'createExternalWallet body.externalWalletId']);

/**
 * Identifiers of things outside the sandbox's records (the KYC provider's), and those of the envelope the sandbox's
 * own webhook receiver takes (`receiveDelivery`, which reads no record and keeps nothing): there is nothing of A to
 * reach through them.
 */
const NOT_RECORDS = new Set([
  'registerUser body.identity_verification_id',
  'generateKycUrl query.template_id',
  'receiveDelivery body.id',
  'receiveDelivery body.tenantId',
]);

/**
 * The IDs of a KYC link and of a checkout link: each is its own credential, given to the end user as a hosted
 * page's link is, so whoever holds it acts on its one record, with no token. There is no "another
 * tenant's" call to try with them; instead no read of B's ever shows A's links (they are in A's `data`).
 */
const LINK_IDS = new Set(['sessionId', 'checkoutId']);

const idLike = (name: string, schema: JsonObject | undefined, example?: unknown) =>
  schema?.format === 'uuid' ||
  [example, schema?.example].some((e) => typeof e === 'string' && UUID.test(e)) ||
  /(^id|Id|_id)$/.test(name);

/** Properties of a schema, through $ref, allOf, oneOf and anyOf. */
function propertiesOf(doc: OpenApiDocument, node: unknown): Record<string, JsonObject> {
  const schema = resolveRef<JsonObject>(doc, node) ?? {};
  const merged: Record<string, JsonObject> = {};
  for (const part of [
    schema,
    ...((schema.allOf ?? []) as unknown[]),
    ...((schema.oneOf ?? []) as unknown[]),
    ...((schema.anyOf ?? []) as unknown[]),
  ]) {
    const resolved = resolveRef<JsonObject>(doc, part) ?? {};
    for (const [name, sub] of Object.entries((resolved.properties ?? {}) as Record<string, unknown>))
      merged[name] = resolveRef<JsonObject>(doc, sub);
  }
  return merged;
}

function bodyIds(doc: OpenApiDocument, schema: unknown, prefix: string[] = [], depth = 0): string[][] {
  return Object.entries(propertiesOf(doc, schema)).flatMap(([name, sub]) =>
    idLike(name, sub) ? [[...prefix, name]] : depth < 3 ? bodyIds(doc, sub, [...prefix, name], depth + 1) : [],
  );
}

interface Slot {
  /** `path.userId`, `query.originWallet`, `body.destination.externalWalletId`. */
  where: string;
  name: string;
}

interface Op {
  family: string;
  doc: OpenApiDocument;
  entry: OperationEntry;
  slots: Slot[];
  /** Who may call it: `admin`, `business`, `v1` (from the security schemes' `x-sandbox-credential`, else the family). */
  credentials: string[];
}

function operations(): Op[] {
  return SANDBOX_FAMILIES.flatMap((family) => {
    const doc = readBundleFile(family);
    const schemes = (doc.components?.securitySchemes ?? {}) as JsonObject;
    return listOperations(doc).map((entry) => {
      let slots: Slot[] = entry.parameters
        .filter((p) => (p.in === 'path' || p.in === 'query') && idLike(p.name, p.schema, p.example))
        .map((p) => ({ where: `${p.in}.${p.name}`, name: p.name }));
      if (entry.operation.requestBody) {
        const schema = resolveRef<JsonObject>(doc, entry.operation.requestBody).content?.['application/json']?.schema;
        const own = OWN_BODIES[entry.operationId];
        const ids = own ? own.ids.map((id) => [id]) : bodyIds(doc, schema);
        if (!own && Object.keys(propertiesOf(doc, schema)).length === 0)
          throw new Error(
            `${entry.operationId}: its body shows no properties; say which identifiers it takes in OWN_BODIES`,
          );
        slots.push(...ids.map((path) => ({ where: `body.${path.join('.')}`, name: path.at(-1)! })));
      }
      slots = slots.filter((s) => !NOT_RECORDS.has(`${entry.operationId} ${s.where}`) && !LINK_IDS.has(s.name));
      const security = (entry.operation.security ?? doc.security ?? []) as JsonObject[];
      const credentials = [
        ...new Set(
          security
            .flatMap((r) => Object.keys(r))
            .map((n) => (schemes[n]?.['x-sandbox-credential'] as string | undefined) ?? family),
        ),
      ];
      return { family, doc, entry, slots, credentials };
    });
  });
}

interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

const setAt = (target: JsonObject, path: string[], value: unknown) => {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] = node[key] && typeof node[key] === 'object' ? node[key] : {};
  node[path.at(-1)!] = value;
};

/** The operation called by tenant `t` on its own records, with `overrides` (`where` → value) in place. */
function callFor(op: Op, t: Records, overrides: Record<string, string> = {}): Call {
  const valueFor = (slot: Slot) => overrides[slot.where] ?? t[RECORD_OF[slot.name]!];
  const call: Call = { method: op.entry.method.toUpperCase(), path: op.entry.path, query: {}, headers: {} };
  for (const p of op.entry.parameters) {
    const slot = op.slots.find((s) => s.where === `${p.in}.${p.name}`);
    const value = slot
      ? valueFor(slot)
      : p.name === 'x-integration-register'
        ? t.integrationRegister
        : p.required
          ? (p.example ?? p.schema?.example)
          : undefined;
    if (value === undefined) continue;
    if (p.in === 'path') call.path = call.path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query') call.query[p.name] = String(value);
    else if (p.in === 'header') call.headers[p.name] = String(value);
  }
  if (op.entry.operation.requestBody) {
    const own = OWN_BODIES[op.entry.operationId];
    const body = own ? own.body(t) : structuredClone((bodyExamples(op.doc, op.entry)[0]?.[1] ?? {}) as JsonObject);
    for (const slot of op.slots.filter((s) => s.where.startsWith('body.')))
      setAt(body, slot.where.split('.').slice(1), valueFor(slot));
    // Whatever an operation registers calls back to this test's receiver, never to an example host.
    if (typeof body.url === 'string') body.url = `${t.receiverUrl}/${op.entry.operationId}`;
    call.body = body;
  }
  return call;
}

describe.each(storesUnderTest())('tenant isolation on $name, tested as an attacker would', (store) => {
  const sandbox = useSandbox({ store, adminToken: ADMIN_TOKEN });
  let admin: SandboxClient;
  let receiver: Server;
  let receiverUrl: string;
  let a: Records;
  let b: Records;
  const ops = operations();

  async function send(call: Call, token?: string): Promise<{ status: number; text: string }> {
    const url = new URL(sandbox.url + call.path);
    for (const [k, v] of Object.entries(call.query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...call.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    return { status: res.status, text: await res.text() };
  }

  async function ok(
    family: string,
    operationId: string,
    token: string,
    path: Record<string, string>,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<any> {
    const entry = operationById(readBundleFile(family), operationId);
    let p = entry.path;
    for (const [k, v] of Object.entries(path)) p = p.replace(`{${k}}`, v);
    const answer = await send({ method: entry.method.toUpperCase(), path: p, query: {}, headers, body }, token);
    if (answer.status >= 300) throw new Error(`${operationId} answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text);
  }

  /** A tenant with one of every record; `n` makes its personal data its own. */
  async function populate(label: string, n: string): Promise<Records> {
    const tenant = await orThrow(admin.createTenant({ body: { name: `${label} Pagos SAS` } }));
    const clientId = tenant.clientId;
    const person = {
      first_name: `${label}ndrea`,
      first_surname: `${label}zcarate`,
      email: `${label.toLowerCase()}.owner@${label.toLowerCase()}-tenant.example`,
      document_number: n.repeat(10),
      cell_phone_number: `+57300${n.repeat(7)}`,
    };
    const userId = await registerExampleUser(sandbox.url, tenant, person);
    await orThrow(admin.approveUser({ params: { path: { userId } } }));
    await orThrow(admin.fundUser({ params: { path: { userId } }, body: { amount: 5_000_000, currency: 'COP' } }));
    const accountNumber = `${n.repeat(4)}-${n.repeat(4)}-${n.repeat(2)}`;
    const { accountId } = await orThrow(
      admin.createBankAccount({ body: { clientId, userId, accountHolderName: `${label}ndrea Holder`, accountNumber } }),
    );
    await orThrow(admin.acceptBankAccount({ params: { path: { accountId } } }));
    const businessToken = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const v1Token = await sandboxToken(sandbox.url, 'v1', tenant.v1Credentials);
    const wallet = await ok('business', 'createCustodyWallet', businessToken, { clientId, userId }, { token: 'USDC' });
    const wallet2 = await ok('business', 'createCustodyWallet', businessToken, { clientId, userId }, { token: 'USDC' });
    await orThrow(admin.fundWallet({ params: { path: { walletId: wallet.id } }, body: { amount: 1000 } }));
    const transfer = await ok(
      'business',
      'createWalletTransfer',
      businessToken,
      { clientId, userId },
      { walletOriginId: wallet.id, walletDestinationId: wallet2.id, amount: 10 },
    );
    const payout = await ok(
      'v1',
      'createPayout',
      v1Token,
      { user_id: userId },
      { amount: 100_000, currency: 'COP', destinationId: accountId, paymentMethod: 'ACH' },
    );
    const { externalWalletId } = await orThrow(admin.createExternalWallet({ body: { userId } }));
    const onRamp = await ok(
      'v1',
      'createOnRamp',
      v1Token,
      { user_id: userId },
      {
        amount: 400_000,
        paymentMethod: 'NEQUI',
        phone: person.cell_phone_number,
        destination: { type: 'EXTERNAL', externalWalletId },
      },
    );
    const kycLink = (await ok('v1', 'generateKycUrl', v1Token, { user_id: userId })).url as string;
    const checkoutLink = onRamp.depositInfo.depositInstructions.checkoutUrl as string;
    const webhookUrl = `${receiverUrl}/${label.toLowerCase()}-business-hook`;
    const webhook = await orThrow(
      admin.createBusinessWebhook({ body: { clientId, url: webhookUrl, process: 'ramp' } }),
    );
    const endpointUrl = `${receiverUrl}/${label.toLowerCase()}-integration`;
    const endpointBody: JsonObject = {
      ...(bodyExamples(
        readBundleFile('v1'),
        operationById(readBundleFile('v1'), 'createIntegrationEndpoint'),
      )[0]![1] as JsonObject),
      name: `${label} ledger`,
      url: endpointUrl,
      isActive: true,
    };
    delete endpointBody.triggerEvent;
    const endpoint = await ok('v1', 'createIntegrationEndpoint', v1Token, {}, endpointBody);
    await orThrow(
      admin.triggerEvent({
        body: { tenantId: clientId, event: 'fiat.payout.completed', subject: { id: payout.id, status: 'COMPLETED' } },
      }),
    );
    const { deliveries } = await orThrow(admin.listDeliveries({ params: { query: { tenant: clientId } } }));
    const [address] = await sandbox.db.query<{ address: string }>('select address from custody_wallets where id = $1', [
      wallet.id,
    ]);
    return {
      receiverUrl,
      clientId,
      businessSecret: tenant.businessCredentials.clientSecret,
      v1Secret: tenant.v1Credentials.clientSecret,
      integrationRegister: tenant.integrationRegister,
      businessToken,
      v1Token,
      userId,
      walletId: wallet.id,
      walletId2: wallet2.id,
      transferId: transfer.id,
      accountId,
      payoutId: payout.id,
      onRampId: onRamp.operation.id,
      externalWalletId,
      webhookId: webhook.id,
      endpointId: endpoint.id,
      deliveryId: deliveries[0]!.id,
      data: [
        tenant.name,
        person.first_name,
        person.first_surname,
        person.email,
        person.document_number,
        person.cell_phone_number,
        accountNumber,
        `${label}ndrea Holder`,
        address!.address,
        wallet.wallet,
        webhookUrl,
        endpointUrl,
        kycLink,
        checkoutLink,
        tenant.businessCredentials.clientSecret,
        tenant.v1Credentials.clientSecret,
        tenant.integrationRegister,
        businessToken,
        v1Token,
      ],
    };
  }

  /** Every value of A's that B must never see. */
  const secretsOf = (t: Records) => [
    ...new Set(
      Object.entries(t)
        .filter(([key]) => key !== 'receiverUrl')
        .flatMap(([key, value]) => (key === 'data' ? (value as string[]) : [value as string])),
    ),
  ];

  /** Waits until no delivery is pending (the receiver answers 200 at once). */
  async function settled(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [row] = await sandbox.db.query<{ n: string | number }>(
        "select count(*) as n from sandbox_deliveries where status = 'pending'",
      );
      if (Number(row!.n) === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('deliveries stayed pending');
  }

  /** Every row of every table that names any of A's records, as text: what "nothing of A changed" compares. */
  async function snapshotOf(t: Records): Promise<string[]> {
    await settled();
    const tables = await sandbox.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
    );
    const ids = Object.values(t).filter((v): v is string => typeof v === 'string' && UUID.test(v));
    const rows: string[] = [];
    for (const { table_name } of tables) {
      const found = await sandbox.db.query<{ row: string }>(
        `select r::text as row from ${table_name} r where r::text like any($1) order by 1`,
        [ids.map((id) => `%${id}%`)],
      );
      rows.push(...found.map((f) => `${table_name}: ${f.row}`));
    }
    return rows;
  }

  beforeAll(async () => {
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    admin = createSandboxClient({ baseUrl: sandbox.url, adminToken: ADMIN_TOKEN });
    a = await populate('A', '7');
    b = await populate('B', '8');
  }, 60_000);

  afterAll(async () => {
    if (receiver) await new Promise((resolve) => receiver.close(resolve));
  });

  it('derives a record of A for every identifier of every operation of the bundles', () => {
    const unnamed = ops.flatMap((op) =>
      op.slots.filter((s) => !(s.name in RECORD_OF)).map((s) => `${op.entry.operationId} ${s.where}`),
    );
    expect(unnamed).toEqual([]);
    // The sweep covers the three bundles, and every control operation that takes a record.
    expect(new Set(ops.filter((o) => o.slots.length).map((o) => o.family))).toEqual(
      new Set(['business', 'v1', 'sandbox']),
    );
  });

  it("refuses B every operation on A's identifiers exactly as on unknown ones, shows B nothing of A, and leaves A as it was", async () => {
    const before = await snapshotOf(a);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const hidden = secretsOf(a);
    for (const op of ops.filter((o) => o.slots.length)) {
      const tokens =
        op.credentials.length === 0
          ? [undefined]
          : op.credentials.filter((c) => c !== 'admin').map((c) => (c === 'business' ? b.businessToken : b.v1Token));
      for (const bearer of tokens) {
        for (const slot of op.slots) {
          const label = `${op.entry.operationId} ${slot.where}${bearer === b.v1Token && op.family === 'sandbox' ? ' (v1 token)' : ''}`;
          const aValue = a[RECORD_OF[slot.name]!];
          const unknown = randomUUID();
          const control = await send(callFor(op, b, { [slot.where]: unknown }), bearer);
          const attack = await send(callFor(op, b, { [slot.where]: aValue }), bearer);
          statuses.set(attack.status, (statuses.get(attack.status) ?? 0) + 1);
          const leaked = hidden.filter((h) => h !== aValue && attack.text.includes(h));
          if (leaked.length) problems.push(`${label}: answered ${attack.status} showing A's ${leaked.join(', ')}`);
          if (/"error":"invalid_request"/.test(control.text))
            problems.push(`${label}: the request breaks the description (${control.text}), so it tests nothing`);
          if (CHOSEN_IDS.has(`${op.entry.operationId} ${slot.where}`)) {
            if (attack.status < 400 || attack.status >= 500 || attack.text.includes(aValue))
              problems.push(`${label}: A's taken ID answered ${attack.status} ${attack.text}`);
            continue;
          }
          const same = (text: string, id: string) => text.split(id).join('<id>');
          if (attack.status !== control.status || same(attack.text, aValue) !== same(control.text, unknown)) {
            problems.push(
              `${label}: A's ID answered ${attack.status} ${attack.text.slice(0, 300)}; an unknown ID ${control.status} ${control.text.slice(0, 300)}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshotOf(a)).toEqual(before);
    // A's identifiers were refused (or filtered to nothing), never served: the answers seen, by status.
    expect(
      [...statuses.keys()].every((s) => [200, 400, 401, 403, 404, 409, 422].includes(s)),
      JSON.stringify([...statuses]),
    ).toBe(true);
  });

  it("refuses every identifier B chooses that collides with a record of A, of B or of the sandbox itself (a clientId), and B cannot spend A's balance through one", async () => {
    // A's client holds money; B registers a user whose external_user_id is A's clientId and tries to pay it out.
    await orThrow(
      admin.fundUser({ params: { path: { userId: a.clientId } }, body: { amount: 1_000_000, currency: 'COP' } }),
    );
    const before = await snapshotOf(a);
    const register = ops.find((o) => o.entry.operationId === 'registerUser')!;
    const problems: string[] = [];
    const steps: string[] = [];
    const registered = await send(callFor(register, b, { 'body.external_user_id': a.clientId }), b.v1Token);
    steps.push(`registerUser external_user_id=A's clientId: ${registered.status}`);
    // Whatever the answer, the rest of the attack is tried: approve, an account for that user, a payout.
    const approved = await admin.approveUser({ params: { path: { userId: a.clientId } } });
    steps.push(`approveUser: ${approved.response.status}`);
    const account = await admin.createBankAccount({ body: { clientId: b.clientId, userId: a.clientId } });
    steps.push(`createBankAccount: ${account.response.status}`);
    if (account.data) await admin.acceptBankAccount({ params: { path: { accountId: account.data.accountId } } });
    const payout = await send(
      {
        method: 'POST',
        path: `/api/v1/admin/fiats/${a.clientId}/payout`,
        query: {},
        headers: {},
        body: {
          amount: 1_000_000,
          currency: 'COP',
          destinationId: account.data?.accountId ?? randomUUID(),
          paymentMethod: 'ACH',
        },
      },
      b.v1Token,
    );
    steps.push(`createPayout of A's 1,000,000 COP: ${payout.status}`);
    if (registered.status < 400 || registered.status >= 500 || payout.status < 400) problems.push(steps.join('; '));
    const [balance] = await sandbox.db.query<{ amount: string }>(
      'select amount from balances where owner_id = $1 and tenant_id = $2',
      [a.clientId, a.clientId],
    );
    expect(Number(balance?.amount), `A's client balance after ${steps.join('; ')}`).toBe(1_000_000);

    // Every identifier a client chooses, set to each of A's record IDs, to B's own clientId and to B's own records.
    const collisions: [string, string][] = [
      ...(Object.keys(RECORD_OF).map((name) => RECORD_OF[name]!) as IdKey[])
        .filter((k, i, all) => all.indexOf(k) === i)
        .map((k) => [`A's ${k}`, a[k]] as [string, string]),
      ["B's own clientId", b.clientId],
      ["B's own userId", b.userId],
      ["B's own walletId", b.walletId],
      ["B's own accountId", b.accountId],
    ];
    for (const chosen of CHOSEN_IDS) {
      const [operationId, where] = chosen.split(' ') as [string, string];
      const op = ops.find((o) => o.entry.operationId === operationId)!;
      for (const [what, id] of collisions) {
        const attack = await send(callFor(op, b, { [where]: id }), op.family === 'sandbox' ? ADMIN_TOKEN : b.v1Token);
        if (attack.status < 400 || attack.status >= 500)
          problems.push(`${chosen} = ${what}: answered ${attack.status} ${attack.text.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshotOf(a)).toEqual(before);
  });

  it("shows B nothing of A when B reads its own records, and A's view is B-free too", async () => {
    for (const [reader, other] of [
      [b, a],
      [a, b],
    ] as const) {
      const hidden = secretsOf(other);
      for (const op of ops.filter((o) => o.entry.method === 'get' && o.credentials.length)) {
        for (const c of op.credentials.filter((x) => x !== 'admin')) {
          const answer = await send(callFor(op, reader), c === 'business' ? reader.businessToken : reader.v1Token);
          expect(answer.status, `${op.entry.operationId}: ${answer.text}`).toBe(200);
          expect(
            hidden.filter((h) => answer.text.includes(h)),
            op.entry.operationId,
          ).toEqual([]);
        }
      }
    }
  });

  it("refuses a token of the other family, and A's token with B's clientId in the path, with nothing of B in the answer", async () => {
    const before = await snapshotOf(b);
    const hidden = secretsOf(b);
    for (const op of ops.filter((o) => o.family !== 'sandbox' && o.credentials.length)) {
      const swapped = await send(callFor(op, b), op.family === 'business' ? b.v1Token : b.businessToken);
      expect(swapped.status, `${op.entry.operationId} with the other family's token`).toBe(401);
      if (!op.slots.some((s) => s.where === 'path.clientId')) continue;
      const crossed = await send(callFor(op, a, { 'path.clientId': b.clientId }), a.businessToken);
      expect([403, 404], `${op.entry.operationId}: A's token on B's clientId: ${crossed.text}`).toContain(
        crossed.status,
      );
      expect(
        hidden.filter((h) => h !== b.clientId && crossed.text.includes(h)),
        op.entry.operationId,
      ).toEqual([]);
    }
    // B's integration-register value with A's v1 token registers nothing for B (and nothing for A).
    const register = ops.find((o) => o.entry.operationId === 'registerUser')!;
    const answer = await send(
      {
        ...callFor(register, a, { 'body.external_user_id': randomUUID() }),
        headers: { 'x-integration-register': b.integrationRegister },
      },
      a.v1Token,
    );
    expect(answer.status).toBe(401);
    expect(await snapshotOf(b)).toEqual(before);
  });

  it('answers 401 to a control call without the admin token, whatever was sent instead, and never repeats it', async () => {
    const before = await snapshotOf(a);
    const wrong = `wrong-${ADMIN_TOKEN.slice(4)}x`;
    // The KYC and checkout links' operations take no token (their ID is their credential), nor does the sandbox's
    // webhook receiver (the delivery worker calls it as it calls a team's), nor getSandbox (it says only that this
    // is a sandbox): not here.
    const control = ops.filter((o) => o.family === 'sandbox' && o.credentials.length);
    expect(
      ops
        .filter((o) => o.family === 'sandbox' && !o.credentials.length)
        .map((o) => o.entry.operationId)
        .sort(),
    ).toEqual([
      'approveKycSession',
      'getCheckout',
      'getKycSession',
      'getSandbox',
      'payCheckout',
      'receiveDelivery',
      'rejectCheckout',
      'rejectKycSession',
    ]);
    for (const op of control) {
      const call = callFor(op, a);
      const sent: [string, string | undefined][] = [
        ['no token', undefined],
        ['a wrong token', wrong],
        ['the admin token with a letter changed', ADMIN_TOKEN.slice(0, -1) + (ADMIN_TOKEN.endsWith('a') ? 'b' : 'a')],
      ];
      // Operations that reach every tenant take the admin token only: a tenant's own token is refused too.
      if (!op.credentials.includes('business'))
        sent.push(["B's Business token", b.businessToken], ["B's v1 token", b.v1Token]);
      for (const [what, bearer] of sent) {
        const answer = await send(call, bearer);
        expect(answer.status, `${op.entry.operationId} with ${what}`).toBe(401);
        expect(JSON.parse(answer.text).error).toBe(REFUSALS.unauthorized.code);
        if (bearer) expect(answer.text.includes(bearer) || answer.text.includes(bearer.slice(4, 20))).toBe(false);
      }
    }
    expect(
      control
        .filter((o) => !o.credentials.includes('business'))
        .map((o) => o.entry.operationId)
        .sort(),
    ).toEqual(['advanceClock', 'clearRateLimit', 'createTenant', 'resetSandbox', 'setRateLimit']);
    expect(await snapshotOf(a)).toEqual(before);
  });

  it("lets B's own token drive B's records on the control API, and lists only B's deliveries", async () => {
    const scoped = createSandboxClient({ baseUrl: sandbox.url, adminToken: b.v1Token });
    const { deliveries } = await orThrow(scoped.listDeliveries());
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.tenantId === b.clientId)).toBe(true);
    const pending = await orThrow(scoped.completePayout({ params: { path: { payoutId: b.payoutId } } }));
    expect(pending.status).toBe('COMPLETED');
    const { deliveries: all } = await orThrow(admin.listDeliveries());
    expect(new Set(all.map((d) => d.tenantId))).toEqual(new Set([a.clientId, b.clientId]));
  });
});
