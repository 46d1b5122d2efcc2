// The behaviour checks come from the schemas: whatever a spec-driven stub generates from a success schema
// passes them (so a stub that follows the description cannot fail the suite), and a body that changes a
// value the schema fixes fails them and schema validation alike (the `status: "JPRDQ"` wallet).
import { describe, expect, it } from 'vitest';
import { readBundle } from '../scripts/openapi/apis.js';
import { selectedFamilies } from '../scripts/openapi/targets.js';
import { listOperations, resolveRef } from '../src/client/lookup/index.js';
import { createSchemaValidator } from '../src/sandbox/contract/schema-validator.js';
import { behaviourProblems, statedBehaviour } from './behaviour.js';
import { generateValue, seededRandom } from './generate-values.js';

for (const api of selectedFamilies()) {
  const doc = readBundle(api);
  const validator = createSchemaValidator(doc);
  const successes = listOperations(doc).flatMap((entry) =>
    Object.entries(entry.operation.responses ?? {})
      .filter(([status]) => status.startsWith('2'))
      .map(([status, response]) => ({
        entry,
        status,
        schema: resolveRef(doc, response).content?.['application/json']?.schema,
      }))
      .filter((s) => s.schema !== undefined),
  );

  describe(`${api.name}: behaviour stated by the success schemas`, () => {
    // The generator honours const, enum, maxItems and allOf, as a spec-driven stub does (not `pattern`).
    it.each(successes.map((s) => [`${s.entry.operationId} ${s.status}`, s] as const))(
      '%s: bodies generated from the schema pass the behaviour checks',
      (_name, { schema }) => {
        const random = seededRandom(7);
        const behaviours = statedBehaviour(doc, schema);
        for (let i = 0; i < 30; i++) {
          const body = generateValue(doc, schema, random);
          expect(behaviourProblems(behaviours, body)).toEqual([]);
        }
      },
    );

    const fixed = successes.flatMap((s) =>
      statedBehaviour(doc, s.schema)
        .filter((b) => b.what.includes(' is always '))
        .map((b) => [`${s.entry.operationId}: ${b.what}`, s, b] as const),
    );
    it.each(fixed)('%s: a body with another value fails the check and the schema', (_name, { schema }, behaviour) => {
      const body = generateValue(doc, schema, seededRandom(11)) as Record<string, any>;
      let parent = body;
      for (const key of behaviour.path.slice(0, -1)) parent = parent[key];
      parent[behaviour.path.at(-1)!] = 'JPRDQ';
      expect(behaviourProblems([behaviour], body)).toEqual([`${behaviour.what}, but it is "JPRDQ"`]);
      expect(validator.validate(schema, body).join('\n')).toMatch(
        /must be equal to one of the allowed values|must be equal to constant|must be boolean/,
      );
    });
  });
}

it('the creation responses fix a state in both families', () => {
  const states = selectedFamilies().flatMap((api) => {
    const doc = readBundle(api);
    return listOperations(doc).flatMap((entry) =>
      Object.entries(entry.operation.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, response]) =>
          statedBehaviour(doc, resolveRef(doc, response).content?.['application/json']?.schema)
            .filter((b) => b.what.includes(' is always '))
            .map((b) => `${entry.operationId}: ${b.what}`),
        ),
    );
  });
  // The values themselves are the description's (checked against the source in openapi/*/*.test.ts).
  expect(states.map((s) => s.split(':')[0])).toEqual(
    expect.arrayContaining(['createCustodyWallet', 'createPayout', 'registerUser', 'deleteWebhook']),
  );
});
