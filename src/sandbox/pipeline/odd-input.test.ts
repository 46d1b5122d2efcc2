// Whatever it is sent, the sandbox answers a status the operation's description documents, never a 5xx
// Every operation of the three bundles (derived from them, not listed here) gets odd requests: IDs
// that are not UUIDs or name nothing, text with a NUL character in every string of the body and in every query
// parameter, 100,000-deep JSON, numbers past Number.MAX_VALUE, a body over 1 MiB, a body sent as text/plain or
// with no Content-Type, and a body sent to an operation that takes none. Then the cases the issue names one by
// one: a non-UUID user_id, a date in year 0, a balance funded past Number.MAX_VALUE, another client's clientId.
import { randomUUID } from 'node:crypto';
import { listOperations, type OperationEntry } from 'ramp-api/lookup';
import { beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { rawRequest } from '../../testing/raw-http.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { exampleRequestValues, operationTarget } from '../../testing/sandbox-users.js';
import { readBundleFile } from '../contract/document.js';
import { bodyExamples } from '../contract/lookup.js';
import { REFUSALS } from '../core/refusals.js';
import { MAX_DELIVERY_BYTES } from '../events/store.js';
import { SANDBOX_FAMILIES } from '../server.js';
import { MAX_TEXT_CHARS } from '../store/quotas.js';
import { bodyLimit, MAX_BODY_BYTES, MAX_PUBLIC_BODY_BYTES } from './request-body.js';

const families = SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
// resetSandbox last: it removes the tenant the other calls use.
const operations = families
  .flatMap(({ family, doc }) => listOperations(doc).map((entry) => ({ family, doc, entry })))
  .sort((a, b) => Number(a.entry.operationId === 'resetSandbox') - Number(b.entry.operationId === 'resetSandbox'));

const sandbox = useSandbox();
let records: Record<string, string>;
let tokens: Record<'business' | 'v1', string>;

beforeAll(async () => {
  ({ tokens, records } = await exampleRequestValues(sandbox.url, 'Odd input', { approve: true }));
}, 60_000);

interface Sent {
  name: string;
  status: number;
  body: string;
  headers: Headers;
}

/** Sends one request to `entry` with the tenant's token for its family; path and query values as given, raw. */
async function send(
  family: string,
  entry: OperationEntry,
  name: string,
  options: {
    path?: Record<string, string>;
    query?: Record<string, string>;
    body?: string;
    contentType?: string | null;
  } = {},
): Promise<Sent> {
  const { path, headers } = operationTarget({ tokens, records }, family, entry, options.path);
  const query = new URLSearchParams(options.query ?? {}).toString();
  if (options.body !== undefined && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  if (options.body !== undefined && entry.method === 'get') {
    // fetch sends no body with a GET: a raw request does.
    const head = [
      `GET ${path}${query ? `?${query}` : ''} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ].join('\r\n');
    const status = await rawRequest(sandbox.url, head, options.body, 10_000);
    return { name, status: status ?? 0, body: '', headers: new Headers() };
  }
  const response = await fetch(`${sandbox.url}${path}${query ? `?${query}` : ''}`, {
    method: entry.method.toUpperCase(),
    headers,
    body: options.body,
  });
  return { name, status: response.status, body: await response.text(), headers: response.headers };
}

/** The example body with every string holding a NUL character, and the JSON text with every number past Number.MAX_VALUE. */
function oddBodies(example: unknown): { nul: string; huge: string; largest: string } {
  const nul = JSON.stringify(example, (_key, value: unknown) =>
    typeof value === 'string' ? `odd\u0000${value}` : value,
  );
  const numbers = (text: string) =>
    JSON.stringify(example, (_key, value: unknown) => (typeof value === 'number' ? '__number__' : value)).replaceAll(
      '"__number__"',
      text,
    );
  return { nul, huge: numbers('1e400'), largest: numbers(String(Number.MAX_VALUE)) };
}

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deep = nested(100_000);
/** As deep as an operation that needs no token reads: its body is at most MAX_PUBLIC_BODY_BYTES. */
const deepButSmall = nested(2_000);
if (deepButSmall.length >= MAX_PUBLIC_BODY_BYTES) throw new Error('deepButSmall must fit a public body');

describe('the cases the issue names', () => {
  const entry = (operationId: string) => operations.find((o) => o.entry.operationId === operationId)!;

  it('a user_id that is not a UUID is an unknown user (createOnRamp 403, createPayout 403, generateKycUrl 404), not a 500', async () => {
    for (const [operationId, status] of [
      ['createOnRamp', 403],
      ['createPayout', 403],
      ['generateKycUrl', 404],
    ] as const) {
      const { family, doc, entry: e } = entry(operationId);
      const sent = await send(family, e, 'user_id not a UUID', {
        path: { user_id: 'cliente-42' },
        body: e.operation.requestBody ? JSON.stringify(bodyExamples(doc, e)[0]![1]) : undefined,
      });
      expect(sent.status, `${operationId}: ${sent.body}`).toBe(status);
    }
  });

  it("another client's clientId is refused with the documented 403 (listClientUsers, listBankAccounts, listWebhooks)", async () => {
    for (const operationId of ['listClientUsers', 'listBankAccounts', 'listWebhooks']) {
      const { family, entry: e } = entry(operationId);
      const sent = await send(family, e, 'another client', { path: { clientId: randomUUID() } });
      expect([sent.status, JSON.parse(sent.body).error], operationId).toEqual([403, 'forbidden']);
    }
  });

  it('an on-ramp of Number.MAX_VALUE COP, which the description allows, is over the default tier limit (10^15 COP): the documented 422 with a tierEscalation', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const external = await orThrow(control.createExternalWallet({ body: { userId: records.userId! } }));
    const { family, entry: e } = entry('createOnRamp');
    for (const executionMode of ['NORMAL', 'INVERSE']) {
      const body = {
        amount: Number.MAX_VALUE,
        executionMode,
        destination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId },
      };
      const sent = await send(family, e, 'amount Number.MAX_VALUE', {
        path: { user_id: records.userId! },
        body: JSON.stringify(body),
      });
      expect(sent.status, sent.body).toBe(422);
      expect(JSON.parse(sent.body)).toMatchObject({
        error: REFUSALS.tierLimitExceeded.code,
        tierEscalation: { actionType: 'DOC_UPLOAD' },
      });
    }
    const within = { amount: 1e15, destination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId } };
    const created = await send(family, e, 'amount 10^15', {
      path: { user_id: records.userId! },
      body: JSON.stringify(within),
    });
    expect(created.status, created.body).toBe(201);
    expect(sandbox.violations).toEqual([]);
  });

  it('a wallet transfer filter from year 0 is a valid bound: every transfer is after it', async () => {
    const { family, entry: e } = entry('listWalletTransfers');
    const sent = await send(family, e, 'startDate year 0', {
      query: { startDate: '0000-01-01', finalDate: '9999-12-31' },
    });
    expect([sent.status, sent.body]).toEqual([200, '[]']);
  });

  it("a balance cannot be funded past the sandbox's limit, let alone Number.MAX_VALUE: 400, and the balance stays as it was", async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const userId = records.userId!;
    const past = await control.fundUser({
      params: { path: { userId } },
      body: { amount: Number.MAX_VALUE, currency: 'USD' },
    });
    expect(past.response.status).toBe(400);
    await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e15, currency: 'USD' } }));
    const again = await control.fundUser({ params: { path: { userId } }, body: { amount: 1e15, currency: 'USD' } });
    expect([again.response.status, (again.error as { error?: string }).error]).toEqual([400, 'balance_limit']);
    const once = await orThrow(
      control.fundUser({ params: { path: { userId } }, body: { amount: 0.5, currency: 'EUR' } }),
    );
    expect(once.balance).toBe(0.5);
  });
});

describe('every operation answers odd input with a status its description documents, never a 5xx', () => {
  for (const { family, entry } of operations) {
    it(`${family} ${entry.operationId}`, async () => {
      const doc = families.find((f) => f.family === family)!.doc;
      const documented = Object.keys(entry.operation.responses ?? {}).map(Number);
      const invalid = documented.includes(422) ? 422 : 400;
      const example = bodyExamples(doc, entry)[0]?.[1] ?? {};
      const text = JSON.stringify(example);
      const answers: Sent[] = [];
      const expectStatus = (sent: Sent, status: number) =>
        expect(sent.status, `${entry.operationId}, ${sent.name}: ${sent.body.slice(0, 300)}`).toBe(status);

      for (const p of entry.parameters.filter((p) => p.in === 'path')) {
        answers.push(
          await send(family, entry, `path ${p.name} not a UUID`, {
            path: { [p.name]: 'not-a-uuid' },
            body: entry.operation.requestBody ? text : undefined,
          }),
        );
        answers.push(
          await send(family, entry, `path ${p.name} unknown`, {
            path: { [p.name]: randomUUID() },
            body: entry.operation.requestBody ? text : undefined,
          }),
        );
      }
      for (const p of entry.parameters.filter((p) => p.in === 'query')) {
        const nul = await send(family, entry, `query ${p.name} with NUL`, {
          query: { [p.name]: 'a\u0000b' },
          body: entry.operation.requestBody ? text : undefined,
        });
        expectStatus(nul, invalid);
        answers.push(nul);
        if (p.schema?.format === 'date')
          answers.push(await send(family, entry, `query ${p.name} in year 0`, { query: { [p.name]: '0000-01-01' } }));
      }
      if (entry.operation.requestBody) {
        const { nul, huge, largest } = oddBodies(example);
        // What the sandbox reads of this operation's body: less for one that needs no token, but its receiver.
        const readLimit = bodyLimit({ secured: entry.operation.security?.length !== 0, entry }).bytes;
        const cases: [string, string, string | null | undefined, number][] = [
          ['body as text/plain', text, 'text/plain', 415],
          ['body without Content-Type', text, null, 415],
          // Over every operation's limit, the receiver's (the largest delivery the sandbox makes) included.
          ['body over 1 MiB', `{"padding":"${'x'.repeat(MAX_DELIVERY_BYTES)}"}`, undefined, 413],
          ['body 100,000 levels deep', deep, undefined, deep.length > readLimit ? 413 : invalid],
          ['body 2,000 levels deep (under 16 KiB)', deepButSmall, undefined, invalid],
          ['NUL in every string of the body', nul, undefined, nul === text ? -1 : invalid],
          ['every number of the body past Number.MAX_VALUE', huge, undefined, huge === text ? -1 : invalid],
          // Allowed by the description: whatever the answer, it is documented and its numbers are numbers.
          ['every number of the body at Number.MAX_VALUE', largest, undefined, -1],
          ['a NUL in a key', '{"a\\u0000b":1}', undefined, invalid],
          [
            `a text of ${MAX_TEXT_CHARS + 1} characters`,
            `{"a":"${'x'.repeat(MAX_TEXT_CHARS + 1)}"}`,
            undefined,
            invalid,
          ],
        ];
        for (const [name, body, contentType, status] of cases) {
          const sent = await send(family, entry, name, { body, contentType });
          if (status !== -1) expectStatus(sent, status);
          answers.push(sent);
        }
      } else {
        // A body the operation does not take is not read, whatever its size; a write with a form's content type
        // is refused (415) all the same.
        const sent = await send(family, entry, 'a 2 MiB octet-stream body to an operation that takes none', {
          body: 'x'.repeat(2 * MAX_BODY_BYTES),
          contentType: 'application/octet-stream',
        });
        expect([413, 415], `${entry.operationId}: ${sent.body}`).not.toContain(sent.status);
        answers.push(sent);
        if (entry.method !== 'get') {
          const form = await send(family, entry, 'a text/plain body to a write that takes none', {
            body: 'x'.repeat(2 * MAX_BODY_BYTES),
            contentType: 'text/plain',
          });
          expectStatus(form, 415);
          answers.push(form);
        }
      }
      for (const sent of answers) {
        expect(sent.status, `${entry.operationId}, ${sent.name}: ${sent.body.slice(0, 300)}`).toBeLessThan(500);
        expect(
          documented,
          `${entry.operationId}, ${sent.name}: status ${sent.status} is not documented (${sent.body.slice(0, 200)})`,
        ).toContain(sent.status);
      }
      expect(sandbox.violations).toEqual([]);
    }, 30_000);
  }
});
