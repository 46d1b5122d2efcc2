// Refusals: every secured operation without a token, and every documented constraint of every request
// (parameters and body) broken on its own. The cases are derived from the description, so a new field
// or constraint is covered without editing this file. Every refusal's status is recorded
// (reports/contract-refusals.md) and must be one the operation documents.
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readBundle, repoRoot } from '../scripts/openapi/apis.js';
import { validRequest, violations } from '../scripts/openapi/requests.js';
import { type ContractTarget, selectedFamilies } from '../scripts/openapi/targets.js';
import { listOperations } from '../src/client/lookup/index.js';
import { parameterOverrides, writesAllowed } from '../src/sandbox/journeys/deployment.js';
import { documentedKey, type Refusal, refusalProblem, writeRefusalReport } from './coverage.js';
import { clientFor } from './targets.js';

const targets = inject('contractTargets');
const refusals: Refusal[] = [];

for (const api of selectedFamilies()) {
  const doc = readBundle(api);
  const target = targets.find((t) => t.family === api.name) as ContractTarget;
  const overrides = target.mode === 'live' ? parameterOverrides() : {};

  describe(`${api.name} refusals (${target.mode})`, () => {
    for (const entry of listOperations(doc)) {
      const skipWrite = target.mode === 'live' && entry.method !== 'get' && !writesAllowed();
      const call = (init: unknown, authenticated = true) => clientFor(target, authenticated)[entry.operationId]!(init);
      const documented = Object.keys(entry.operation.responses ?? {});
      /** Records the refusal and returns what is wrong with its status, if anything. */
      const record = (broken: string, status: number) => {
        const problem = refusalProblem(documented, status);
        refusals.push({
          family: api.name,
          operationId: entry.operationId,
          broken,
          status,
          documented: documentedKey(documented, status) !== undefined,
        });
        return problem;
      };

      if (entry.operation.security?.length !== 0) {
        it.skipIf(skipWrite)(`${entry.operationId} without a token is refused with 401`, async () => {
          const result = await call(validRequest(doc, entry, overrides), false);
          expect(record('no token', result.response.status), entry.operationId).toBeUndefined();
          expect(result.response.status).toBe(401);
        });
      }

      const cases = violations(doc, entry, overrides);
      if (cases.length === 0) continue;
      describe(`${entry.operationId}: one broken constraint at a time`, () => {
        it.skipIf(skipWrite).each(cases.map((c) => [c.name, c]))(
          '%s is refused with a documented 4xx',
          async (_name, violation) => {
            const result = await call(violation.init);
            const detail = result.response.headers.get('sl-violations') ?? '';
            expect(
              record(violation.name, result.response.status),
              `${entry.operationId} ${violation.name}${detail ? `; Prism: ${detail}` : ''}`,
            ).toBeUndefined();
          },
        );
      });
    }
  });
}

afterAll(() => {
  if (!refusals.length) return;
  const summary = writeRefusalReport(process.env.CONTRACT_REPORT_DIR ?? join(repoRoot, 'reports'), refusals);
  console.log(`\nRefusal statuses (reports/contract-refusals.md):\n${summary}\n`);
});

describe('the violation generator', () => {
  it('breaks the constraints the source states', () => {
    const v1 = selectedFamilies().find((a) => a.name === 'v1');
    if (!v1) return;
    const doc = readBundle(v1);
    const names = (operationId: string) =>
      violations(doc, listOperations(doc).find((o) => o.operationId === operationId)!).map((v) => v.name);
    expect(names('createOnRamp')).toEqual(
      expect.arrayContaining([
        'body.amount: 0 (exclusiveMinimum 0)',
        'body.amount: -1 (below exclusiveMinimum 0)',
        'body.destination.externalWalletId: malformed uuid',
        'body.paymentMethod: outside the enum',
        'body.bankCode: missing (required)',
        'body.amount: missing (required)',
      ]),
    );
    expect(names('createIntegrationEndpoint')).toContain('body.url: 501 characters (maxLength 500)');
    expect(names('registerUser')).toEqual(
      expect.arrayContaining([
        'header x-integration-register: missing (required)',
        'body.email: malformed email',
        'body.birth_date: malformed date',
        'body.home_info.city_home: missing (required)',
        'body.is_pep: wrong type (12345)',
      ]),
    );
  });
});
