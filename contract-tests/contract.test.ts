// One test per operation and documented status, for every operation in both bundles: the request is
// built from the description's examples and sent through the generated client (Prism refuses a request
// that does not conform), and the answer is validated with Ajv against that status's schema. Against a
// real deployment the same tests run, minus the ones that need Prism's Prefer header.
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type OpenApiDocument, readBundle, repoRoot } from '../scripts/openapi/apis.js';
import { validRequest } from '../scripts/openapi/requests.js';
import { type ContractTarget, selectedFamilies } from '../scripts/openapi/targets.js';
import { listOperations, type OperationEntry, resolveRef } from '../src/client/lookup/index.js';
import { createSandboxClient } from '../src/client/sandbox/client.js';
import { createSchemaValidator } from '../src/sandbox/contract/schema-validator.js';
import { envPrefix, parameterOverrides, writesAllowed } from '../src/sandbox/journeys/deployment.js';
import { behaviourProblems, statedBehaviour } from './behaviour.js';
import { concreteStatus, coverage, documentedKey, type Observation, writeCoverageReport } from './coverage.js';
import { recipeFor, unreachableCells } from './sandbox-recipes.js';
import { clientFor } from './targets.js';

const targets = inject('contractTargets');
/** Set by `npm run contract:sandbox`: the sandbox's control API, through which recipes set up state. */
const sandboxControl = process.env.SANDBOX_CONTROL_URL
  ? createSandboxClient({ baseUrl: process.env.SANDBOX_CONTROL_URL, retry: false })
  : undefined;
const observations: Observation[] = [];
const docs = selectedFamilies().map((api) => ({ family: api.name, doc: readBundle(api) }));
/** The family's token call (POST .../token, no bearer token): it reads nothing and changes nothing. */
const isTokenCall = (entry: OperationEntry) => entry.operation.security?.length === 0 && entry.path.endsWith('/token');
const isWrite = (entry: OperationEntry) => entry.method !== 'get' && !isTokenCall(entry);

function check(
  doc: OpenApiDocument,
  family: string,
  entry: OperationEntry,
  result: { data?: unknown; error?: unknown; response: Response },
) {
  const status = result.response.status;
  observations.push({ family, operationId: entry.operationId, status });
  const documented = Object.keys(entry.operation.responses);
  const key = documentedKey(documented, status);
  const violations = result.response.headers.get('sl-violations');
  expect(
    key,
    `${entry.operationId} answered ${status}, which the description does not document${violations ? `; Prism: ${violations}` : ''}`,
  ).toBeDefined();
  const response = resolveRef(doc, entry.operation.responses[key!]);
  const schema = response.content?.['application/json']?.schema;
  if (schema) {
    expect(result.response.headers.get('content-type') ?? '', `${entry.operationId} ${status} content type`).toMatch(
      /json/,
    );
    const body = result.response.ok ? result.data : result.error;
    const problems = validator(doc).validate(schema, body);
    const shown = problems.slice(0, 8).join('; ') + (problems.length > 8 ? `; and ${problems.length - 8} more` : '');
    expect(problems, `${entry.operationId} ${status} body does not match the description: ${shown}`).toEqual([]);
    // The states and limits the schema fixes (a created wallet is accepted, a new payout PENDING, ...), named.
    if (result.response.ok)
      expect(behaviourProblems(statedBehaviour(doc, schema), body), `${entry.operationId} ${status}`).toEqual([]);
  }
}

const validators = new Map<OpenApiDocument, ReturnType<typeof createSchemaValidator>>();
const validator = (doc: OpenApiDocument) =>
  validators.get(doc) ?? validators.set(doc, createSchemaValidator(doc)).get(doc)!;

for (const { family, doc } of docs) {
  const target = targets.find((t) => t.family === family) as ContractTarget;
  describe(`${family} (${target.mode})`, () => {
    for (const entry of listOperations(doc)) {
      const secured = entry.operation.security?.length !== 0;
      const liveCredentials = target.mode === 'live' ? process.env[`${envPrefix(family)}CREDENTIALS`] : undefined;
      const writeSkipped =
        target.mode === 'live' && ((isWrite(entry) && !writesAllowed()) || (isTokenCall(entry) && !liveCredentials));
      const callOperation = (authenticated: boolean, headers: Record<string, string> = {}) => {
        const init = validRequest(doc, entry, target.mode === 'live' ? parameterOverrides() : {});
        // Against a real deployment the token call gets the real credentials, not the empty example body.
        if (liveCredentials && isTokenCall(entry)) init.body = JSON.parse(liveCredentials);
        return clientFor(target, authenticated)[entry.operationId]!({ ...init, headers });
      };

      describe(`${entry.operationId} (${entry.method.toUpperCase()} ${entry.path})`, () => {
        if (target.mode === 'live' && sandboxControl) {
          // The sandbox: every documented status reached by the state a named recipe sets up.
          for (const key of Object.keys(entry.operation.responses)) {
            const recipe = recipeFor(entry, key);
            if (recipe && 'unreachable' in recipe) {
              it.skip(`${key}: unreachable in the sandbox: ${recipe.unreachable}`, () => {});
              continue;
            }
            it(`${key}: ${recipe?.name ?? 'no recipe'}`, async () => {
              expect(recipe, `${entry.operationId} ${key}: no recipe reaches this documented status`).toBeDefined();
              const params = parameterOverrides();
              const result = await recipe!.run({
                doc,
                entry,
                control: sandboxControl,
                baseUrl: target.url,
                params,
                credentials: JSON.parse(liveCredentials ?? '{}'),
                request: () => validRequest(doc, entry, params),
                send: (init, authenticated = true) => clientFor(target, authenticated)[entry.operationId]!(init),
                call: (operationId, init) => clientFor(target)[operationId]!(init),
              });
              expect(
                documentedKey([key], result.response.status),
                `${entry.operationId}: expected ${key}, got ${result.response.status} ${JSON.stringify(result.error ?? '')}`,
              ).toBe(key);
              if (recipe!.reason)
                expect(
                  (result.error as { error?: string } | undefined)?.error,
                  `${entry.operationId} ${key}: refused for another reason`,
                ).toBe(recipe!.reason);
              check(doc, family, entry, result);
            });
          }
          return;
        }
        if (target.mode === 'live') {
          // Skipped without CONTRACT_ALLOW_WRITES=1 for operations that create or change something, and for the
          // token call without *_API_CREDENTIALS.
          it.skipIf(writeSkipped)('answers with a documented status and a body that matches it', async () => {
            check(doc, family, entry, await callOperation(true));
          });
          it.skipIf(writeSkipped || !secured)('refuses the call without a token', async () => {
            const result = await callOperation(false);
            expect(result.response.status).toBe(401);
            check(doc, family, entry, result);
          });
          it.skip("other documented statuses need Prism's Prefer header: mock only", () => {});
          return;
        }
        for (const key of Object.keys(entry.operation.responses)) {
          const status = concreteStatus(key);
          const examples = Object.keys(
            resolveRef(doc, entry.operation.responses[key]).content?.['application/json']?.examples ?? { '': null },
          );
          for (const example of examples) {
            const label = example && examples.length > 1 ? ` (example ${example})` : '';
            it(`${key}${label}: request conforms, answer matches the description`, async () => {
              // A secured operation's 401 is reached for real, by sending no token; every other status by asking Prism.
              const result =
                status === 401 && secured
                  ? await callOperation(false)
                  : await callOperation(true, { Prefer: `code=${status}${example ? `, example=${example}` : ''}` });
              expect(
                result.response.status,
                `${entry.operationId}: expected ${status}; Prism: ${result.response.headers.get('sl-violations') ?? 'no violations'}`,
              ).toBe(status);
              check(doc, family, entry, result);
            });
          }
        }
      });
    }
  });
}

afterAll(() => {
  const rows = coverage(docs, observations);
  const unreachable = sandboxControl ? unreachableCells(docs) : new Map<string, string>();
  writeCoverageReport(process.env.CONTRACT_REPORT_DIR ?? join(repoRoot, 'reports'), rows, targets, unreachable);
  const undocumented = rows
    .filter((r) => r.undocumented.length)
    .map((r) => `${r.operationId}: ${r.undocumented.join(', ')}`);
  expect(undocumented, 'statuses seen that the description does not document').toEqual([]);
  if (targets.every((t) => t.mode === 'mock') || sandboxControl) {
    // Against the sandbox, a cell is excused only when its recipe names why no state reaches it.
    const excused = (r: (typeof rows)[number], key: string) => unreachable.has(`${r.family} ${r.operationId} ${key}`);
    const missing = rows
      .map((r) => ({ r, keys: r.missing.filter((key) => !excused(r, key)) }))
      .filter(({ keys }) => keys.length)
      .map(({ r, keys }) => `${r.operationId}: ${keys.join(', ')}`);
    expect(missing, 'documented statuses no test exercised').toEqual([]);
  }
});
