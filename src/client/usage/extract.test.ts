// The usage extractor over a small consuming project: each construct that reads the API (property access,
// destructuring, optional chaining, array elements, values handed to functions typed with the generated
// types, statuses told apart, webhook handlers and their payload fields), both call styles, the request's
// parameters and fields, and each conservative fallback that counts the whole value as read.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../testing/repo.js';
import { extractTestUsage, makeUsageProject, markerSite } from '../../testing/usage-project.js';
import { bundleDigest } from './bundles.js';
import { extractUsage } from './extract.js';
import { type FieldUse, serializeUsage, type UsageFile, validateUsage } from './usage-file.js';

const FILES: Record<string, string> = {
  'src/client.ts': `import { createBusinessClient } from 'ramp-api/business';
import { createV1Client } from 'ramp-api/v1';
export const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:9' });
export const business = createBusinessClient({ baseUrl: 'http://127.0.0.1:9' });
// An ES module (package.json "type": "module"): import.meta is allowed.
export const here = import.meta.url;
`,
  'src/property.ts': `import { v1 } from './client.js';
export async function pay(userId: string) {
  const { data, response } = await v1.createPayout({ // call:createPayout
    params: { path: { user_id: userId } },
    body: { amount: 5, currency: 'COP', destinationId: 'd' }, // body:literal
  });
  if (response.status === 400) return 'funds';
  switch (response.status) {
    case 422:
      return 'refused';
  }
  return data ? data.id : undefined; // read:property
}
`,
  'src/destructure.ts': `import { v1 } from './client.js';
export async function kyc(userId: string) {
  const result = await v1.POST('/api/v1/provider/kyc/user/generateurl/{user_id}', { params: { path: { user_id: userId } } }); // call:generateKycUrl
  const { url } = result.data!; // read:destructuring
  return [url, result.data?.url]; // read:optional
}
`,
  'src/arrays.ts': `import { business } from './client.js';
export async function wallets(clientId: string, userId: string) {
  const { data } = await business.GET('/api/b2b2b/{clientId}/wallet/custody/{userId}', { params: { path: { clientId, userId } } });
  const first = data?.[0]?.wallet; // read:element
  return (data ?? []).map((w) => w.status).concat(first ?? []); // read:map
}
`,
  'src/typed.ts': `import type { components } from 'ramp-api/v1';
export function describePayout(payout: components['schemas']['Payout']): string {
  return String(payout.currency).toUpperCase(); // read:typed
}
`,
  'src/fallbacks.ts': `import type { components } from 'ramp-api/v1';
import { v1 } from './client.js';
export async function register(form: Record<string, unknown>) { // param:form
  const { data } = await v1.POST('/api/v1/users/register', { // call:registerUser
    params: { header: { 'x-integration-register': 'i' } },
    body: form as components['schemas']['RegisterUserRequest'],
  });
  const inner = (data!.data as any).whatever; // whole:as-any
  const opaque = data as unknown; // whole:as-unknown
  const copy = { ...data?.data }; // whole:spread
  const text = JSON.stringify(data?.message); // whole:stringify
  console.log(data?.status); // whole:log
  return [inner, opaque, copy, text];
}
`,
  'src/webhooks.ts': `import { createWebhookReceiver, type Delivery } from 'ramp-api/webhooks';
function onPayout({ payload }: Delivery<'fiat.payout.completed'>) {
  console.info('payout', typeof payload.amount); // payload:named-handler
}
export const receiver = createWebhookReceiver({
  handlers: {
    'user.created': ({ payload }) => { // handler:user.created
      const who = payload.userId; // payload:field
      return void who;
    },
    'fiat.payin.completed': async () => {}, // handler:fiat.payin.completed
    'fiat.payout.completed': onPayout,
  },
});
`,
};

/** `src/file.ts:N`, the line of the marker comment `// marker` in the fixture. */
const site = (marker: string) => markerSite(FILES, marker);

const V1 = '/components/schemas';
let dir: string;
let usage: UsageFile;
const op = (operationId: string) => usage.operations.find((o) => o.operationId === operationId)!;
const field = (fields: FieldUse[], pointer: string) => fields.find((f) => f.pointer === pointer);

beforeAll(async () => {
  dir = makeUsageProject('fixture-consumer', FILES);
  usage = (await extractTestUsage(dir)).usage;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ramp-api usage reads a project', () => {
  it('names the consumer and pins the bundle of each family it uses by its digest', async () => {
    expect(usage.consumer).toBe('fixture-consumer');
    expect(usage.descriptions).toEqual({
      business: bundleDigest(readFileSync(join(repoRoot, 'src', 'client', 'dist', 'openapi', 'business.json'))),
      v1: bundleDigest(readFileSync(join(repoRoot, 'src', 'client', 'dist', 'openapi', 'v1.json'))),
    });
    await expect(validateUsage(JSON.parse(serializeUsage(usage)), 'the fixture')).resolves.toBeTruthy();
  });

  it('finds calls by operationId and by path, with their sites and parameters', () => {
    expect(op('createPayout')).toMatchObject({
      family: 'v1',
      method: 'post',
      path: '/api/v1/admin/fiats/{user_id}/payout',
      calls: [site('call:createPayout')],
      parameters: ['path user_id'],
    });
    expect(op('generateKycUrl').calls).toEqual([site('call:generateKycUrl')]);
    expect(op('listCustodyWallets')).toMatchObject({
      family: 'business',
      parameters: ['path clientId', 'path userId'],
    });
  });

  it('records the request fields a literal body sets, and a body built elsewhere as dynamic', () => {
    const pointers = op('createPayout').requestFields.map((f) => f.pointer);
    expect(pointers).toEqual(
      ['amount', 'currency', 'destinationId'].map((name) => `${V1}/CreatePayoutRequest/properties/${name}`),
    );
    expect(op('createPayout').requestDynamic).toBeUndefined();
    expect(op('registerUser').requestDynamic).toEqual([
      {
        site: site('call:registerUser'),
        reason: `the body is built at run time (a parameter at ${site('param:form')})`,
      },
    ]);
  });

  it('reads a property access', () => {
    expect(field(op('createPayout').responseFields, `${V1}/Payout/properties/id`)?.sites).toEqual([
      site('read:property'),
    ]);
  });

  it('reads destructuring and optional chaining', () => {
    expect(field(op('generateKycUrl').responseFields, `${V1}/KycLink/properties/url`)?.sites).toEqual([
      site('read:destructuring'),
      site('read:optional'),
    ]);
  });

  it('reads array elements, by index and through a callback', () => {
    const fields = op('listCustodyWallets').responseFields;
    expect(field(fields, `${V1}/CustodyWallet/properties/wallet`)?.sites).toEqual([site('read:element')]);
    expect(field(fields, `${V1}/CustodyWallet/properties/status`)?.sites).toEqual([site('read:map')]);
  });

  it('reads a value handed to a function typed with the generated types', () => {
    expect(field(op('createPayout').responseFields, `${V1}/Payout/properties/currency`)?.sites).toContain(
      site('read:typed'),
    );
  });

  it('records the statuses the code around a call tells apart', () => {
    expect(op('createPayout').statuses).toEqual(['400', '422']);
    expect(op('generateKycUrl').statuses).toEqual([]);
  });

  it('records the events a webhook receiver handles and the payload fields each reads', () => {
    const created = usage.events.find((e) => e.event === 'user.created')!;
    expect(created.handlers).toEqual([site('handler:user.created')]);
    expect(created.payloadFields).toEqual([
      { pointer: `${V1}/EventPayload/properties/userId`, sites: [site('payload:field')] },
    ]);
    expect(usage.events.find((e) => e.event === 'fiat.payin.completed')?.payloadFields).toEqual([]);
  });

  it('gives a handler declared apart, by name, the payload fields it reads', () => {
    expect(usage.events.find((e) => e.event === 'fiat.payout.completed')?.payloadFields).toEqual([
      { pointer: `${V1}/EventPayload/properties/amount`, sites: [site('payload:named-handler')] },
    ]);
    expect(usage.events.find((e) => e.event === 'user.created')?.payloadFields).toHaveLength(1);
  });

  describe('counts the whole value as read where it cannot follow it', () => {
    const whole = (pointer: string, marker: string) => {
      const found = field(op('registerUser').responseFields, pointer);
      expect(found?.whole).toBe(true);
      expect(found?.sites).toContain(site(marker));
    };
    it('a cast to any', () => whole(`${V1}/RegisteredUser/properties/data`, 'whole:as-any'));
    it('a cast to unknown', () => whole(`${V1}/RegisteredUser`, 'whole:as-unknown'));
    it('a spread', () => whole(`${V1}/RegisteredUser/properties/data`, 'whole:spread'));
    it('JSON.stringify', () => whole(`${V1}/RegisteredUser/properties/message`, 'whole:stringify'));
    it('console.log', () => whole(`${V1}/RegisteredUser/properties/status`, 'whole:log'));
  });

  it('writes a file its reader takes back, also for a source file whose name holds a line break', async () => {
    const [first, ...rest] = usage.operations;
    const odd = { ...first!, calls: ['src/odd\nname.ts:3', ...first!.calls] };
    const written = serializeUsage({ ...usage, operations: [odd, ...rest] });
    await expect(validateUsage(JSON.parse(written), 'the fixture')).resolves.toBeTruthy();
  });

  it('writes the same file on every run, with the declaration files shared between runs or not', async () => {
    // `usage` was read with the declarations shared by this worker's extractions (extractTestUsage): this run takes
    // the lib files, @types and ramp-api's types those parsed and bound, and the next parses its own.
    const reusing = (await extractTestUsage(dir)).usage;
    expect(serializeUsage(reusing)).toBe(serializeUsage(usage));
    const alone = (await extractUsage({ projectDir: dir })).usage;
    expect(serializeUsage(alone)).toBe(serializeUsage(usage));
  }, 60_000);
});
