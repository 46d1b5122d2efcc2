// Generated inputs: for every operation with a body or parameters, 100 requests generated from the
// description must be accepted by the Prism mock, and 100 with one documented constraint broken must all be
// refused with a 4xx the operation documents. The generators read the schemas, so a new field is covered without editing tests.
// PROPERTY_SEED (printed) reproduces a run; PROPERTY_RUNS changes the count.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readBundle } from '../scripts/openapi/apis.js';
import { violations } from '../scripts/openapi/requests.js';
import { type ContractTarget, selectedFamilies } from '../scripts/openapi/targets.js';
import { listOperations, resolveRef } from '../src/client/lookup/index.js';
import { createSchemaValidator } from '../src/sandbox/contract/schema-validator.js';
import { refusalProblem } from './coverage.js';
import { generateRequest, seededRandom } from './generate-values.js';
import { clientFor } from './targets.js';

const targets = inject('contractTargets');
const SEED = Number(process.env.PROPERTY_SEED ?? 20261121);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);
const figures: string[] = [];

/** Runs `count` tasks with at most `width` in flight. */
async function pool<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

for (const api of selectedFamilies()) {
  const doc = readBundle(api);
  const target = targets.find((t) => t.family === api.name) as ContractTarget;
  const validator = createSchemaValidator(doc);
  const operations = listOperations(doc).filter((o) => o.parameters.length > 0 || o.operation.requestBody);

  describe.skipIf(target.mode !== 'mock')(
    `${api.name}: generated requests against the Prism mock (seed ${SEED})`,
    () => {
      for (const entry of operations) {
        it(`${entry.operationId}: ${RUNS} valid requests accepted, ${RUNS} with one broken constraint refused`, async () => {
          const random = seededRandom(SEED ^ (entry.operationId.length * 7919));
          const client = clientFor(target);
          const call = (init: unknown) => client[entry.operationId]!(init);
          const documented = Object.keys(entry.operation.responses ?? {});
          const bodySchema = entry.operation.requestBody
            ? resolveRef(doc, entry.operation.requestBody).content?.['application/json']?.schema
            : undefined;

          const valid = Array.from({ length: RUNS }, () => generateRequest(doc, entry, random));
          for (const request of valid) {
            if (bodySchema)
              expect(validator.validate(bodySchema, request.body), 'the generator made an invalid body').toEqual([]);
          }
          const accepted = await pool(valid.length, 8, async (i) => {
            const result = await call(valid[i]);
            return result.response.ok
              ? null
              : `${result.response.status} ${result.response.headers.get('sl-violations') ?? ''} for ${JSON.stringify(valid[i]).slice(0, 300)}`;
          });
          const refusedValid = accepted.filter((r): r is string => r !== null);
          expect(refusedValid, `${entry.operationId}: valid generated requests were refused`).toEqual([]);

          const broken = valid.flatMap((request, i) => {
            const cases = violations(doc, entry, {}, request);
            return cases.length ? [cases[Math.floor(random() * cases.length + i) % cases.length]!] : [];
          });
          const answers = await pool(broken.length, 8, async (i) => {
            const result = await call(broken[i]!.init);
            const problem = refusalProblem(documented, result.response.status);
            return problem === undefined ? null : `${broken[i]!.name}: ${problem}`;
          });
          const accepted4xx = answers.filter((a): a is string => a !== null);
          expect(
            accepted4xx,
            `${entry.operationId}: requests with a broken constraint were not refused with a documented 4xx`,
          ).toEqual([]);
          const kinds = new Set(broken.map((b) => b.name)).size;
          figures.push(
            `${api.name.padEnd(8)} ${entry.operationId.padEnd(26)} valid accepted ${RUNS - refusedValid.length}/${RUNS}   invalid refused ${broken.length - accepted4xx.length}/${broken.length} (${kinds} distinct constraints)${broken.length === 0 ? '  no documented constraint to break' : ''}`,
          );
        }, 60_000);
      }
    },
  );
}

afterAll(() => {
  if (figures.length) console.log(`\nGenerated inputs (seed ${SEED}, ${RUNS} per kind):\n${figures.join('\n')}\n`);
});
