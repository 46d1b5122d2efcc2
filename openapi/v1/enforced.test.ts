// The description says what the sandbox enforces: a request the sandbox refuses for its values is one the
// description rules out, so a tester generating requests from the description does not call it "a conforming
// request refused". createPayout's amount (0 or less) and a NUL character in any text, in each family's bodies and
// parameters; each bound marked x-inferred (the source is silent), and the sandbox refusing the same requests.
import { describe, expect, it } from 'vitest';
import { apiFamilies, readBundle } from '../../scripts/openapi/apis.js';
import { createV1Client, orThrow } from '../../src/client/index.js';
import { listOperations, resolveRef } from '../../src/client/lookup/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createSchemaValidator } from '../../src/sandbox/contract/schema-validator.js';
import { useSandbox } from '../../src/testing/sandbox-fixture.js';

const bundles = Object.fromEntries(apiFamilies().map((api) => [api.name, readBundle(api)]));
const v1 = bundles.v1!;
const validator = createSchemaValidator(v1);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const payout = { amount: 1_000, currency: 'COP', destinationId: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16' };

/** Every free text schema (a string with no format, enum or pattern) a request of `doc` can carry, by where. */
function freeTexts(doc: (typeof bundles)[string]): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const walk = (node: any, where: string) => {
    const schema = resolveRef(doc, node);
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const types = [schema.type].flat();
    if (types.includes('string') && !['format', 'enum', 'pattern', 'const'].some((k) => k in schema)) found.push(where);
    for (const [name, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${name}`);
    for (const key of ['items', 'additionalProperties'] as const)
      if (schema[key] && typeof schema[key] === 'object') walk(schema[key], `${where}[]`);
    for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(part, where);
  };
  for (const { operationId, operation, parameters } of listOperations(doc)) {
    for (const parameter of parameters) walk(parameter.schema, `${operationId} ${parameter.name}`);
    const body = resolveRef(doc, operation.requestBody)?.content?.['application/json']?.schema;
    if (body) walk(body, `${operationId} body`);
  }
  return found;
}

describe('the descriptions rule out what the sandbox refuses', () => {
  it("createPayout's amount must be above 0, marked x-inferred", () => {
    expect(validator.validate(ref('CreatePayoutRequest'), payout)).toEqual([]);
    for (const amount of [0, -5])
      expect(validator.validate(ref('CreatePayoutRequest'), { ...payout, amount })).toEqual(['/amount must be > 0']);
    const amount = (v1.components!.schemas as Record<string, any>).CreatePayoutRequest.properties.amount;
    expect(amount['x-inferred']).toContain('bounds');
    expect(amount.description).toMatch(/Inferred: /);
  });

  it('no request of any family carries a free text that may hold a NUL character', () => {
    for (const [family, doc] of Object.entries(bundles)) expect(freeTexts(doc), family).toEqual([]);
    expect(validator.validate(ref('HomeInfo'), { neighborhood: 'a\u0000b' })).toContain(
      '/neighborhood must match pattern "^[^\\u0000]*$"',
    );
  });

  describe('and the sandbox refuses the same requests', () => {
    const sandbox = useSandbox();
    it('a payout of 0 (422), and a NUL in a text (400)', async () => {
      const control = createSandboxClient({ baseUrl: sandbox.url });
      const tenant = await orThrow(control.createTenant({ body: {} }));
      const client = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
      const zero = await client.createPayout({
        params: { path: { user_id: tenant.clientId } },
        body: { ...payout, amount: 0 },
      });
      expect(zero.response.status).toBe(422);
      const nul = await control.createTenant({ body: { name: 'a\u0000b' } });
      expect(nul.response.status).toBe(400);
    });
  });
});
