// The breaking-change gate: the descriptions are compatible with the released baseline, and each rule
// fires on a crafted change, tried both ways (tightened and loosened) where the direction matters.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDocuments } from '../../src/client/usage/rules.js';
import { allApiFamilies, type OpenApiDocument, readBundle, repoRoot } from '../openapi/apis.js';

const baseline = (name: string) =>
  JSON.parse(readFileSync(join(repoRoot, 'openapi', 'baseline', `${name}.json`), 'utf8')) as OpenApiDocument;
const business = baseline('business');
const v1 = baseline('v1');
const schemas = (doc: any) => doc.components.schemas as Record<string, any>;
const mutated = (base: OpenApiDocument, mutate: (doc: any) => void) => {
  const changed = structuredClone(base);
  mutate(changed);
  return changed;
};
const lines = (changes: ReturnType<typeof compareDocuments>, breaking: boolean) =>
  changes
    .filter((c) => c.breaking === breaking)
    .map((c) => `${c.where}: ${c.what}`)
    .join('\n');
const payout = (d: any) => schemas(d).CreatePayoutRequest.properties;
const onRamp = (d: any) => schemas(d).CreateOnRampRequest;
const endpoint = (d: any) => schemas(d).CreateIntegrationEndpointRequest.properties;

type Case = [name: string, base: OpenApiDocument, mutate: (doc: any) => void, line: RegExp];

/** Tightening a request: breaking one way, listed as non-breaking the other way. */
const requestTightenings: Case[] = [
  [
    'a narrowed request type',
    v1,
    (d) => (payout(d).amount.type = 'integer'),
    /createPayout.*request body: amount: type narrowed from number to integer/,
  ],
  [
    'a new format on a request field',
    v1,
    (d) => (endpoint(d).name.format = 'email'),
    /createIntegrationEndpoint.*request body: name: format added: email/,
  ],
  [
    'a request field closed to an enum',
    v1,
    (d) => (payout(d).currency.enum = ['COP']),
    /createPayout.*request body: currency: now a closed enum \(COP\)/,
  ],
  [
    'a value removed from a closed request enum',
    v1,
    (d) => (onRamp(d).properties.paymentMethod.enum = ['PSE', 'NEQUI']),
    /createOnRamp.*request body: paymentMethod: enum value\(s\) DAVIPLATA removed/,
  ],
  [
    'a pattern added to a request field',
    v1,
    (d) => (payout(d).destinationId.pattern = '^[0-9a-f-]{36}$'),
    /createPayout.*request body: destinationId: pattern added: "\^\[0-9a-f-\]\{36\}\$"/,
  ],
  [
    'a tightened maxLength',
    v1,
    (d) => (endpoint(d).url.maxLength = 255),
    /createIntegrationEndpoint.*request body: url: maxLength tightened to 255/,
  ],
  [
    'a minLength added',
    v1,
    (d) => (endpoint(d).name.minLength = 3),
    /createIntegrationEndpoint.*request body: name: minLength added: 3/,
  ],
  [
    'a raised exclusiveMinimum',
    v1,
    (d) => (onRamp(d).properties.amount.exclusiveMinimum = 1000),
    /createOnRamp.*request body: amount: exclusiveMinimum tightened to 1000/,
  ],
  [
    'an exclusiveMaximum added',
    v1,
    (d) => (payout(d).amount.exclusiveMaximum = 1e9),
    /createPayout.*request body: amount: exclusiveMaximum added: 1000000000/,
  ],
  [
    'a maximum added',
    v1,
    (d) => (payout(d).amount.maximum = 1e9),
    /createPayout.*request body: amount: maximum added: 1000000000/,
  ],
  [
    'a multipleOf added',
    v1,
    (d) => (payout(d).amount.multipleOf = 100),
    /createPayout.*request body: amount: multipleOf added: 100/,
  ],
  [
    'a minItems added',
    v1,
    (d) => (schemas(d).RegisterUserRequest.properties.supporting_documents.minItems = 1),
    /registerUser.*request body: supporting_documents: minItems added: 1/,
  ],
  [
    'a new required request field',
    v1,
    (d) => schemas(d).CreatePayoutRequest.required.push('paymentMethod'),
    /createPayout.*request body: paymentMethod: now required/,
  ],
  [
    'an optional parameter made required',
    business,
    (d) => (d.components.parameters.AccountOwnerId.required = true),
    /listBankAccounts.*parameter query userId is now required/,
  ],
  [
    'an if/then requirement added',
    v1,
    (d) =>
      Object.assign(schemas(d).CreatePayoutRequest, {
        if: { required: ['paymentMethod'], properties: { paymentMethod: { const: 'ACH' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, in a schema that is never awaited
        then: { required: ['currency'] },
      }),
    /createPayout.*request body: conditional requirement \(if\/then\) added: if .*ACH.* then .*currency/,
  ],
  [
    'additionalProperties: false added',
    v1,
    (d) => (schemas(d).CreatePayoutRequest.additionalProperties = false),
    /createPayout.*request body: additionalProperties: false added/,
  ],
  [
    'security added to a public operation',
    business,
    (d) => (d.paths['/api/parameters/banks'].get.security = [{ bearerAuth: [] }]),
    /GET \/api\/parameters\/banks \(listBanks\): security added: now requires bearerAuth/,
  ],
];

/** Loosening a response: breaking one way, listed as non-breaking the other way. */
const responseLoosenings: Case[] = [
  [
    'a response field made nullable',
    v1,
    (d) => (schemas(d).Payout.properties.amount.type = ['number', 'null']),
    /createPayout.*response 201: amount: type widened from number to number\|null \(nullable\)/,
  ],
  [
    'a response type widened',
    business,
    (d) => (schemas(d).Bank.properties.status.type = ['string', 'boolean']),
    /listBanks.*response 200: \[\]\.status: type widened/,
  ],
  [
    'a value added to a closed response enum',
    v1,
    (d) => schemas(d).TierEscalation.properties.actionType.enum.push('CALL_CENTER'),
    /createOnRamp.*response 201: tierEscalation<oneOf\[0\]>\.actionType: enum value\(s\) CALL_CENTER added/,
  ],
  [
    'a response enum opened',
    business,
    (d) => delete schemas(d).Webhook.properties.process.enum,
    /deleteWebhook.*response 200: process: enum \(ramp, compliance, wallet_transfer\) removed; any value may now arrive/,
  ],
  [
    'a response field no longer always present',
    business,
    (d) => (schemas(d).Webhook.required = schemas(d).Webhook.required.filter((n: string) => n !== 'url')),
    /deleteWebhook.*response 200: url: no longer always present/,
  ],
  [
    'a removed response field',
    business,
    (d) => delete schemas(d).BankAccount.properties.accountNickname,
    /listBankAccounts.*response 200: \[\]\.accountNickname: field removed/,
  ],
  [
    'a response limit loosened',
    business,
    (d) => (schemas(d).WalletTransferList.maxItems = 20),
    /listWalletTransfers.*response 200: maxItems loosened to 20/,
  ],
];

describe('npm run compat', () => {
  it.each(allApiFamilies().map((a) => [a.name, a] as const))(
    'finds no breaking change in %s against openapi/baseline/',
    (name, api) => {
      const changes = compareDocuments(baseline(name), readBundle(api)).filter((c) => c.breaking);
      expect(
        changes,
        'run `npm run compat` for the report; `npm run compat:accept` only when releasing a new version',
      ).toEqual([]);
    },
  );

  it.each(requestTightenings)('fails on %s, naming it, and passes the reverse change', (_name, base, mutate, line) => {
    const changed = mutated(base, mutate);
    expect(lines(compareDocuments(base, changed), true)).toMatch(line);
    expect(lines(compareDocuments(changed, base), true), 'the loosened request is not breaking').toBe('');
  });

  it.each(responseLoosenings)('fails on %s, naming it, and passes the reverse change', (_name, base, mutate, line) => {
    const changed = mutated(base, mutate);
    expect(lines(compareDocuments(base, changed), true)).toMatch(line);
    expect(lines(compareDocuments(changed, base), true), 'the tightened response is not breaking').toBe('');
  });

  it.each([
    [
      'a success status changed',
      v1,
      (d: any) => {
        const op = d.paths['/api/v1/admin/fiats/{user_id}/payout'].post;
        op.responses['200'] = op.responses['201'];
        delete op.responses['201'];
      },
      /POST \/api\/v1\/admin\/fiats\/\{user_id\}\/payout \(createPayout\): success response 201 changed to 200; clients check for 201/,
    ],
    [
      'a success status removed',
      business,
      (d: any) => delete d.paths['/api/webhooks/{clientId}/{webhook_id}'].delete.responses['200'],
      /deleteWebhook\): success response 200 removed/,
    ],
    [
      'a request media type changed',
      v1,
      (d: any) => {
        const content = d.paths['/api/v1/admin/fiats/{user_id}/payout'].post.requestBody.content;
        content['application/x-www-form-urlencoded'] = content['application/json'];
        delete content['application/json'];
      },
      /createPayout\): request body: media type application\/json no longer accepted \(now application\/x-www-form-urlencoded\)/,
    ],
    [
      'a response media type changed',
      business,
      (d: any) => {
        const content = d.paths['/api/parameters/banks'].get.responses['200'].content;
        content['text/csv'] = content['application/json'];
        delete content['application/json'];
      },
      /listBanks\): response 200: media type application\/json no longer sent \(now text\/csv\)/,
    ],
    [
      'a renamed path parameter',
      v1,
      (d: any) => {
        const item = d.paths['/api/v1/admin/fiats/{user_id}/payout'];
        delete d.paths['/api/v1/admin/fiats/{user_id}/payout'];
        item.post.parameters = [{ ...d.components.parameters.UserIdPath, name: 'userId' }];
        delete item.parameters;
        d.paths['/api/v1/admin/fiats/{userId}/payout'] = item;
      },
      /POST \/api\/v1\/admin\/fiats\/\{userId\}\/payout \(createPayout\): path parameter renamed: \{user_id\} to \{userId\} \(was \/api\/v1\/admin\/fiats\/\{user_id\}\/payout\)/,
    ],
    [
      'a new required parameter (its removal is breaking too: typed clients lose the key)',
      v1,
      (d: any) =>
        d.paths['/api/v1/provider/kyc/user/generateurl/{user_id}'].post.parameters.push({
          name: 'lang',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        }),
      /generateKycUrl.*required parameter query lang added/,
    ],
    [
      'a removed operation',
      business,
      (d: any) => delete d.paths['/api/parameters/banks'],
      /GET \/api\/parameters\/banks \(listBanks\): operation removed/,
    ],
    [
      'a removed path parameter',
      business,
      (d: any) => (d.paths['/api/accounts/{clientId}'].get.parameters = []),
      /listBankAccounts.*parameter query userId removed/,
    ],
    [
      'a changed operationId',
      business,
      (d: any) => (d.paths['/api/parameters/banks'].get.operationId = 'getBanks'),
      /operationId changed from listBanks to getBanks/,
    ],
    ['a removed event', v1, (d: any) => delete d.webhooks['wallet.created'], /event wallet\.created: event removed/],
  ])('fails on %s, naming it', (_name, base, mutate, line) => {
    expect(lines(compareDocuments(base, mutated(base, mutate)), true)).toMatch(line);
  });

  it('a renamed path parameter is not also reported as a removed operation', () => {
    const changed = mutated(v1, (d) => {
      d.paths['/api/v1/admin/fiats/{userId}/payout'] = d.paths['/api/v1/admin/fiats/{user_id}/payout'];
      delete d.paths['/api/v1/admin/fiats/{user_id}/payout'];
    });
    const what = compareDocuments(v1, changed).map((c) => c.what);
    expect(what.filter((w) => /operation (removed|added)/.test(w))).toEqual([]);
  });

  it('lists a changed default as a behaviour notice, not as breaking, either way', () => {
    const changed = mutated(v1, (d) => (onRamp(d).properties.paymentMethod.default = 'NEQUI'));
    for (const [from, to] of [
      [v1, changed],
      [changed, v1],
    ] as const) {
      const changes = compareDocuments(from, to);
      expect(changes.filter((c) => c.breaking)).toEqual([]);
      expect(
        changes
          .filter((c) => c.notice)
          .map((c) => `${c.where}: ${c.what}`)
          .join('\n'),
      ).toMatch(
        /createOnRamp.*request body: paymentMethod: default changed from "(DAVIPLATA|NEQUI)" to "(NEQUI|DAVIPLATA)"/,
      );
    }
  });

  it('passes additive and loosening changes and lists them', () => {
    const changed = mutated(business, (d) => {
      schemas(d).BankAccount.properties.branchName = { type: 'string', description: 'Branch.' };
      d.paths['/api/accounts/{clientId}'].get.parameters.push({
        name: 'status',
        in: 'query',
        required: false,
        schema: { type: 'string' },
      });
      d.paths['/api/parameters/banks'].get.responses['502'] = { description: 'Bad gateway.' };
      schemas(d).CreateCustodyWalletRequest.properties.network.enum.push('STELLAR');
      schemas(d).CreateCustodyWalletRequest.properties.label = { type: 'string', description: 'Label.' };
      d.paths['/api/parameters/networks'] = {
        get: { operationId: 'listNetworks', responses: { '200': { description: 'ok' } } },
      };
      d.paths['/api/infoClient'].get.security = [];
    });
    const changes = compareDocuments(business, changed);
    expect(changes.filter((c) => c.breaking)).toEqual([]);
    expect(changes.map((c) => c.what)).toEqual(
      expect.arrayContaining([
        'response 200: [].branchName: optional field added',
        'optional parameter query status added',
        'response 502 added',
        'request body: network: enum value(s) STELLAR added',
        'request body: label: optional field added',
        'operation added',
        'security removed: now public',
      ]),
    );
  });
});
