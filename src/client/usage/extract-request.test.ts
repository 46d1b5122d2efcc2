// The request side of the usage extractor over a small consuming project: bodies down to the leaf field (nested
// objects and arrays), bodies passed as variables or built by the project's functions and followed to their
// fields, the bodies it cannot follow recorded with their reason, and the token exchange each client with
// `auth: { credentials }` makes on the consumer's behalf. Then the gate's verdicts on them: a break it saw
// ("breaks") told from one it assumes ("may break").
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundleJson } from '../../testing/repo.js';
import { extractTestUsage, makeUsageProject, markerSite } from '../../testing/usage-project.js';
import type { JsonObject, OpenApiDocument } from '../lookup/index.js';
import { affectedBy, describeAffected } from './affected.js';
import type { FamilyBundle } from './bundles.js';
import { checkUsage } from './check.js';
import { compareDocuments } from './compare.js';
import { serializeUsage, type UsageFile, validateUsage } from './usage-file.js';

const FILES: Record<string, string> = {
  'src/client.ts': `import { createBusinessClient } from 'ramp-api/business';
import { createV1Client } from 'ramp-api/v1';
import * as ramp from 'ramp-api/v1';
import { businessCredentials } from './credentials.js';
const baseUrl = 'http://127.0.0.1:9';
export const v1 = createV1Client({ baseUrl, auth: { credentials: { clientId: 'c', clientSecret: 's' } } }); // token:v1
export const business = createBusinessClient({ baseUrl, auth: { credentials: businessCredentials() } }); // token:business
export const fixed = createV1Client({ baseUrl, auth: { token: 't' } });
export const open = createBusinessClient({ baseUrl });
export const namespaced = ramp.createV1Client({ baseUrl, auth: { credentials: { clientId: 'n' } } }); // token:namespace
export function clientFor(credentials: Record<string, unknown>) { // param:credentials
  return createV1Client({ baseUrl, auth: { credentials } }); // token:param
}
`,
  'src/credentials.ts': `export function businessCredentials() {
  return { apiKey: process.env.KEY ?? 'k' };
}
`,
  'src/nested.ts': `import type { components } from 'ramp-api/v1';
import { v1 } from './client.js';
type RegisterUserRequest = components['schemas']['RegisterUserRequest'];
export async function endpoint() {
  return v1.createIntegrationEndpoint({ // call:endpoint
    body: {
      name: 'n',
      direction: 'OUTBOUND',
      url: 'https://example.test/hook',
      httpMethod: 'POST',
      retryConfig: { max_attempts: 5 }, // field:max_attempts
    },
  });
}
export async function withRetry(retry: components['schemas']['RetryConfig']) { // param:retry
  const body = { name: 'n', direction: 'OUTBOUND' as const, url: 'https://example.test/hook', httpMethod: 'POST' as const };
  return v1.createIntegrationEndpoint({ body: { ...body, retryConfig: retry } }); // call:withRetry
}
export async function registerDocuments(kinds: string[]) {
  return v1.registerUser({ // call:documents
    params: { header: { 'x-integration-register': 'i' } },
    body: {
      supporting_documents: kinds.map((kind) => ({ kind, page: 1 })), // field:mapped
    } as unknown as RegisterUserRequest,
  });
}
export async function register() {
  return v1.registerUser({ // call:register
    params: { header: { 'x-integration-register': 'i' } },
    body: {
      incomes: { monthly_incomes: 10 }, // field:monthly_incomes
      supporting_documents: [{ kind: 'id' }, { side: 'front' }], // field:documents
    } as unknown as RegisterUserRequest,
  });
}
`,
  'src/bodies.ts': `export function payoutBody(amount: number) {
  if (amount > 100) return { amount, currency: 'USD', destinationId: 'big' }; // return:first
  return { amount, currency: 'COP', destinationId: 'small', paymentMethod: 'ACH' }; // return:second
}
export const base = { amount: 1, currency: 'COP', destinationId: 'd' };
export const defaults: { currency: string; paymentMethod?: string } = { currency: 'COP' };
`,
  'src/setup.ts': `import { defaults } from './bodies.js';
export function useAch() {
  defaults.paymentMethod = 'ACH'; // mutate:other-module
}
`,
  'src/variables.ts': `import type { components } from 'ramp-api/v1';
import { base, defaults, payoutBody } from './bodies.js';
import { v1 } from './client.js';
type CreatePayoutRequest = components['schemas']['CreatePayoutRequest'];
const params = { path: { user_id: 'u' } };
export async function typedLocal() {
  const body: CreatePayoutRequest = { amount: 5, currency: 'COP', destinationId: 'd' }; // literal:typed
  body.paymentMethod = 'ACH'; // assign:paymentMethod
  return v1.createPayout({ params, body }); // call:typedLocal
}
export async function untypedLet() {
  let body = { amount: 5, currency: 'COP', destinationId: 'd' }; // literal:untyped
  return v1.createPayout({ params, body }); // call:untypedLet
}
export async function fromFunction() {
  return v1.createPayout({ params, body: payoutBody(7) }); // call:fromFunction
}
export async function withDefaults() {
  return v1.createPayout({ params, body: { ...defaults, amount: 3, destinationId: 'x' } }); // call:withDefaults
}
export async function conditional(flag: boolean) {
  return v1.createPayout({ params, body: flag ? base : { ...base, paymentMethod: 'ACH' } }); // call:conditional
}
`,
  'src/dynamic.ts': `import type { components } from 'ramp-api/v1';
import { v1 } from './client.js';
type CreatePayoutRequest = components['schemas']['CreatePayoutRequest'];
type RegisterUserRequest = components['schemas']['RegisterUserRequest'];
const params = { path: { user_id: 'u' } };
export async function computed(form: Map<string, string>) {
  const body: Record<string, unknown> = {};
  for (const [key, value] of form) body[key] = value; // computed:key
  return v1.registerUser({ params: { header: { 'x-integration-register': 'i' } }, body: body as RegisterUserRequest }); // call:computed
}
export async function parameter(body: CreatePayoutRequest) { // param:body
  return v1.createPayout({ params, body }); // call:parameter
}
function fill(target: { amount: number; paymentMethod?: string }) {
  target.paymentMethod = 'ACH';
}
export async function passedOn() {
  const body = { amount: 5, currency: 'COP', destinationId: 'd' };
  fill(body); // passed:fill
  return v1.createPayout({ params, body }); // call:passedOn
}
export async function aliased() {
  const body = { amount: 5, currency: 'COP', destinationId: 'd' };
  const alias: { amount: number; paymentMethod?: string } = body; // alias:copy
  alias.paymentMethod = 'ACH';
  return v1.createPayout({ params, body }); // call:aliased
}
export async function kycFor(init: { params: { path: { user_id: string } } }) {
  return v1.generateKycUrl(init); // call:kycInit
}
export async function outside(text: string) {
  return v1.createPayout({ params, body: JSON.parse(text) as CreatePayoutRequest }); // call:outside
}
`,
};

/** `src/file.ts:N`, the line of the marker comment `// marker` in the fixture. */
const site = (marker: string) => markerSite(FILES, marker);

const SCHEMAS = '/components/schemas';
let dir: string;
let usage: UsageFile;
let families: Map<string, FamilyBundle>;
/** The use of an operation by the calls at the given markers. */
const op = (operationId: string) => usage.operations.find((o) => o.operationId === operationId)!;
/** The request fields recorded at a site, by pointer. */
const fieldsAt = (operationId: string, marker: string) =>
  op(operationId)
    .requestFields.filter((f) => f.sites.includes(site(marker)))
    .map((f) => f.pointer)
    .sort();
const dynamicAt = (operationId: string, marker: string) =>
  (op(operationId).requestDynamic ?? []).filter((d) => d.site === site(marker));

beforeAll(async () => {
  dir = makeUsageProject('request-consumer', FILES);
  ({ usage, families } = await extractTestUsage(dir));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('request bodies down to the leaf field', () => {
  it('a nested object literal: its fields, at the pointers of their schema', () => {
    expect(fieldsAt('createIntegrationEndpoint', 'field:max_attempts')).toEqual([
      `${SCHEMAS}/CreateIntegrationEndpointRequest/properties/retryConfig`,
      `${SCHEMAS}/RetryConfig/properties/max_attempts`,
    ]);
    expect(dynamicAt('createIntegrationEndpoint', 'call:endpoint')).toEqual([]);
  });

  it('a field whose value cannot be followed: recorded with its reason and its pointer', () => {
    expect(dynamicAt('createIntegrationEndpoint', 'call:withRetry')).toEqual([
      {
        site: site('call:withRetry'),
        reason: `the body's retryConfig is built at run time (a parameter at ${site('param:retry')})`,
        pointer: `${SCHEMAS}/CreateIntegrationEndpointRequest/properties/retryConfig`,
      },
    ]);
  });

  it('an inline nested object and the object elements of an array', () => {
    const register = `${SCHEMAS}/RegisterUserRequest/properties`;
    expect(fieldsAt('registerUser', 'field:monthly_incomes')).toEqual([
      `${register}/incomes`,
      `${register}/incomes/properties/monthly_incomes`,
    ]);
    expect(fieldsAt('registerUser', 'field:documents')).toEqual([
      `${register}/supporting_documents`,
      `${register}/supporting_documents/items/properties/kind`,
      `${register}/supporting_documents/items/properties/side`,
    ]);
    expect(dynamicAt('registerUser', 'call:register')).toEqual([]);
  });

  it("the elements an array method's callback returns", () => {
    expect(fieldsAt('registerUser', 'field:mapped')).toEqual([
      `${SCHEMAS}/RegisterUserRequest/properties/supporting_documents`,
      `${SCHEMAS}/RegisterUserRequest/properties/supporting_documents/items/properties/kind`,
      `${SCHEMAS}/RegisterUserRequest/properties/supporting_documents/items/properties/page`,
    ]);
    expect(dynamicAt('registerUser', 'call:documents')).toEqual([]);
  });
});

describe('a body passed as a variable is followed', () => {
  const payout = (...names: string[]) => names.map((n) => `${SCHEMAS}/CreatePayoutRequest/properties/${n}`).sort();

  it('a typed local, with a field set by a property assignment', () => {
    expect(fieldsAt('createPayout', 'literal:typed')).toEqual(payout('amount', 'currency', 'destinationId'));
    expect(fieldsAt('createPayout', 'assign:paymentMethod')).toEqual(payout('paymentMethod'));
    expect(dynamicAt('createPayout', 'call:typedLocal')).toEqual([]);
  });

  it('an untyped let never reassigned', () => {
    expect(fieldsAt('createPayout', 'literal:untyped')).toEqual(payout('amount', 'currency', 'destinationId'));
    expect(dynamicAt('createPayout', 'call:untypedLet')).toEqual([]);
  });

  it("each return of a project's function, in another module", () => {
    expect(fieldsAt('createPayout', 'return:first')).toEqual(payout('amount', 'currency', 'destinationId'));
    expect(fieldsAt('createPayout', 'return:second')).toEqual(
      payout('amount', 'currency', 'destinationId', 'paymentMethod'),
    );
    expect(dynamicAt('createPayout', 'call:fromFunction')).toEqual([]);
  });

  it('a field set on an exported object in another module', () => {
    expect(fieldsAt('createPayout', 'mutate:other-module')).toEqual(payout('paymentMethod'));
    expect(dynamicAt('createPayout', 'call:withDefaults')).toEqual([]);
  });

  it('both branches of a conditional, and a spread of a followed value', () => {
    expect(fieldsAt('createPayout', 'call:conditional')).toEqual(payout('paymentMethod'));
    expect(op('createPayout').requestFields.find((f) => f.pointer.endsWith('/amount'))?.sites).toContain(
      'src/bodies.ts:5',
    );
    expect(dynamicAt('createPayout', 'call:conditional')).toEqual([]);
  });
});

describe('a body it cannot follow is recorded with its reason', () => {
  it.each([
    ['computed', 'registerUser', 'the body is built at run time (a computed key at computed:key)'],
    ['parameter', 'createPayout', 'the body is built at run time (a parameter at param:body)'],
    ['passedOn', 'createPayout', 'the body is built at run time (passed to other code at passed:fill)'],
    ['outside', 'createPayout', 'the body is built at run time (a value from outside the project at call:outside)'],
    ['aliased', 'createPayout', 'the body is built at run time (another name given to it at alias:copy)'],
  ])('%s', (name, operationId, reason) => {
    // The marker in the reason stands for its site.
    const expected = reason.replace(/[a-z]+:[A-Za-z]+(?=\)$)/, (marker) => site(marker));
    expect(dynamicAt(operationId, `call:${name}`)).toEqual([{ site: site(`call:${name}`), reason: expected }]);
  });

  it('not for an operation that takes no body', () => {
    expect(op('generateKycUrl').calls).toEqual([site('call:kycInit')]);
    expect(op('generateKycUrl').requestDynamic).toBeUndefined();
  });

  it('the usage file (format version 2) holds each with its reason', async () => {
    expect(usage.formatVersion).toBe(2);
    await expect(validateUsage(JSON.parse(serializeUsage(usage)), 'the fixture')).resolves.toBeTruthy();
  });
});

describe('the token exchange of each client made with credentials', () => {
  it("is a call of the family's token operation at the client's creation, with the credentials' fields", () => {
    expect(op('createClientToken').calls).toEqual([site('token:v1'), site('token:namespace'), site('token:param')]);
    expect(fieldsAt('createClientToken', 'token:v1')).toEqual(
      ['clientId', 'clientSecret'].map((n) => `${SCHEMAS}/ClientTokenRequest/properties/${n}`),
    );
    expect(op('createToken').calls).toEqual([site('token:business')]);
    expect(op('createToken').requestFields).toEqual([
      { pointer: `${SCHEMAS}/TokenRequest/properties/apiKey`, sites: ['src/credentials.ts:2'] },
    ]);
  });

  it('credentials it cannot follow are recorded with their reason', () => {
    expect(op('createClientToken').requestDynamic).toEqual([
      {
        site: site('token:param'),
        reason: `the credentials are built at run time (a parameter at ${site('param:credentials')})`,
      },
    ]);
  });
});

/** The gate's verdict on a change to a copy of the v1 bundle (made from it by `before`), for the fixture's usage. */
function verdict(
  edit: (doc: JsonObject) => void,
  what: string,
  usages = [usage],
  before: (doc: JsonObject) => void = () => {},
): string {
  const base = readBundleJson<OpenApiDocument>('v1');
  before(base as JsonObject);
  const next = structuredClone(base) as JsonObject;
  edit(next);
  const change = compareDocuments(base, next as OpenApiDocument).find((c) => c.breaking && c.what.includes(what));
  expect(change, `a breaking change with ${what}`).toBeDefined();
  return describeAffected(affectedBy(change!, 'v1', usages));
}

describe("the gate's verdicts: breaks (seen) and may break (assumed)", () => {
  /** A second consumer that makes the same calls but sends no field seen: only its assumed uses remain. */
  const assumedOnly = (): UsageFile => ({
    ...usage,
    consumer: 'another-consumer',
    operations: usage.operations.map((o) => ({ ...o, requestFields: [] })),
  });

  it('a lower maximum of a nested leaf the consumer sends: breaks, at the field', () => {
    const text = verdict((doc) => {
      doc.components.schemas.RetryConfig.properties.max_attempts.maximum = 4;
    }, 'max_attempts');
    expect(text).toBe(`breaks request-consumer (${site('field:max_attempts')})`);
  });

  it("a lower maximum of an inline nested object's leaf: breaks, at the field", () => {
    const text = verdict((doc) => {
      doc.components.schemas.RegisterUserRequest.properties.incomes.properties.monthly_incomes.maximum = 5;
    }, 'monthly_incomes');
    expect(text).toBe(`breaks request-consumer (${site('field:monthly_incomes')})`);
  });

  it("a tighter field of an array's elements: breaks, at the field", () => {
    // The bundle's documents are open objects: the base gives them a field `kind`, which the change tightens.
    const documents = (doc: JsonObject) => doc.components.schemas.RegisterUserRequest.properties.supporting_documents;
    const text = verdict(
      (doc) => {
        documents(doc).items.properties.kind.maxLength = 1;
      },
      'kind',
      [usage],
      (doc) => {
        documents(doc).items = { type: 'object', properties: { kind: { type: 'string' } } };
      },
    );
    expect(text).toBe(`breaks request-consumer (${site('field:mapped')}, ${site('field:documents')})`);
  });

  it('a new required credential: breaks every client made with credentials', () => {
    const text = verdict((doc) => {
      const request = doc.components.schemas.ClientTokenRequest;
      request.properties = { tenant: { type: 'string' } };
      request.required = ['tenant'];
    }, 'tenant');
    expect(text).toBe(
      `breaks request-consumer (${site('token:v1')}, ${site('token:namespace')}, ${site('token:param')})`,
    );
  });

  it('a tightened field the consumer sends: breaks, at the fields seen; one only assumed: may break', () => {
    const edit = (doc: JsonObject) => {
      doc.components.schemas.PaymentRail.maxLength = 3;
    };
    expect(verdict(edit, 'maxLength')).toBe(
      `breaks request-consumer (src/bodies.ts:3, ${site('mutate:other-module')}, ${site('assign:paymentMethod')}, ${site('call:conditional')})`,
    );
    expect(verdict(edit, 'maxLength', [usage, assumedOnly()])).toBe(
      `breaks request-consumer (src/bodies.ts:3, ${site('mutate:other-module')}, ${site('assign:paymentMethod')}, ${site('call:conditional')}); ` +
        `may break another-consumer (${site('call:parameter')}: the body is built at run time (a parameter at ${site('param:body')}); ` +
        `${site('call:passedOn')}: the body is built at run time (passed to other code at ${site('passed:fill')}); ` +
        `${site('call:aliased')}: the body is built at run time (another name given to it at ${site('alias:copy')}); ` +
        `${site('call:outside')}: the body is built at run time (a value from outside the project at ${site('call:outside')}))`,
    );
  });

  it('a field whose value is built at run time: a change under it may break, one beside it does not', () => {
    const under = verdict(
      (doc) => {
        doc.components.schemas.RetryConfig.properties.max_attempts.maximum = 4;
      },
      'max_attempts',
      [assumedOnly()],
    );
    expect(under).toBe(
      `may break another-consumer (${site('call:withRetry')}: the body's retryConfig is built at run time (a parameter at ${site('param:retry')}))`,
    );
    const beside = verdict(
      (doc) => {
        doc.components.schemas.CreateIntegrationEndpointRequest.properties.name.maxLength = 3;
      },
      'maxLength',
      [assumedOnly()],
    );
    expect(beside).toBe('no known consumer');
  });

  it('a field only a body built at run time may send: may break alone', () => {
    const text = verdict((doc) => {
      doc.components.schemas.HomeInfo.properties.neighborhood.maxLength = 3;
    }, 'neighborhood');
    expect(text).toBe(
      `may break request-consumer (${site('call:computed')}: the body is built at run time (a computed key at ${site('computed:key')}))`,
    );
  });

  it('a field of a body the consumer never builds at run time and never sends: no known consumer', () => {
    const text = verdict((doc) => {
      doc.components.schemas.CreateIntegrationEndpointRequest.properties.timeoutMs.maximum = 5;
    }, 'timeoutMs');
    expect(text).toBe('no known consumer');
  });
});

describe('usage --check tells the same apart', () => {
  /** `usage --check` of the fixture's usage against its v1 bundle changed by `edit`. */
  const check = (edit: (doc: JsonObject) => void) => {
    const doc = structuredClone(families.get('v1')!.doc) as JsonObject;
    edit(doc);
    return checkUsage(usage, families, new Map([['v1', doc as OpenApiDocument]]));
  };

  it('a change only assumed: "may break", counted apart', () => {
    const result = check((doc) => {
      doc.components.schemas.HomeInfo.properties.neighborhood.maxLength = 3;
    });
    expect(result.lines).toContain(
      `    may break request-consumer (${site('call:computed')}: the body is built at run time (a computed key at ${site('computed:key')}))`,
    );
    expect(result.lines.at(-1)).toBe(
      '1 breaking change(s) may break request-consumer (a request body built at run time).',
    );
    expect(result.breaking).toBe(1);
  });

  it('one seen and one assumed', () => {
    const result = check((doc) => {
      doc.components.schemas.HomeInfo.properties.neighborhood.maxLength = 3;
      doc.components.schemas.RetryConfig.properties.max_attempts.maximum = 4;
    });
    expect(result.lines.at(-1)).toBe(
      '1 breaking change(s) break request-consumer; 1 more may break it (a request body built at run time).',
    );
    expect(result.breaking).toBe(2);
  });
});
