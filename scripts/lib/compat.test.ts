// The breaking-change gate: the descriptions are compatible with the released baseline, and each rule
// fires on a crafted change while additive changes pass.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiFamilies, readBundle, repoRoot, type OpenApiDocument } from './apis.js';
import { compareDocuments } from './compat.js';

const baseline = (name: string) => JSON.parse(readFileSync(join(repoRoot, 'openapi', 'baseline', `${name}.json`), 'utf8')) as OpenApiDocument;
const business = baseline('business');
const v1 = baseline('v1');
const schemas = (doc: OpenApiDocument) => doc.components!.schemas as Record<string, any>;
const breaking = (base: OpenApiDocument, mutate: (doc: any) => void) => {
  const changed = structuredClone(base);
  mutate(changed);
  return compareDocuments(base, changed);
};
const breakingWhat = (base: OpenApiDocument, mutate: (doc: any) => void) =>
  breaking(base, mutate)
    .filter((c) => c.breaking)
    .map((c) => `${c.where}: ${c.what}`);

describe('npm run compat', () => {
  it.each(apiFamilies().map((a) => [a.name, a] as const))('finds no breaking change in %s against openapi/baseline/', (name, api) => {
    const changes = compareDocuments(baseline(name), readBundle(api)).filter((c) => c.breaking);
    expect(changes, 'run `npm run compat` for the report; `npm run compat:accept` only when releasing a new version').toEqual([]);
  });

  it.each([
    ['a removed response field', business, (d: any) => delete schemas(d).BankAccount.properties.accountNickname, /listBankAccounts.*response 200: \[\]\.accountNickname: field removed/],
    ['a removed operation', business, (d: any) => delete d.paths['/api/parameters/banks'], /GET \/api\/parameters\/banks \(listBanks\): operation removed/],
    ['a removed path parameter', business, (d: any) => (d.paths['/api/accounts/{clientId}'].get.parameters = []), /listBankAccounts.*parameter query userId removed/],
    ['a new required request field', v1, (d: any) => schemas(d).CreatePayoutRequest.required.push('paymentMethod'), /createPayout.*request body: paymentMethod: now required/],
    ['a new required parameter', v1, (d: any) => d.paths['/api/v1/provider/kyc/user/generateurl/{user_id}'].post.parameters.push({ name: 'lang', in: 'query', required: true, schema: { type: 'string' } }), /generateKycUrl.*required parameter query lang added/],
    ['a narrowed request type', v1, (d: any) => (schemas(d).CreatePayoutRequest.properties.amount.type = 'integer'), /createPayout.*request body: amount: type narrowed from number to integer/],
    ['a new format on a request field', v1, (d: any) => (schemas(d).CreateIntegrationEndpointRequest.properties.url.format = 'uri'), /createIntegrationEndpoint.*request body: url: format added: uri/],
    ['a request field closed to an enum', v1, (d: any) => (schemas(d).CreatePayoutRequest.properties.currency.enum = ['COP']), /createPayout.*request body: currency: now a closed enum/],
    ['a value removed from a closed request enum', v1, (d: any) => (schemas(d).CreateOnRampRequest.properties.paymentMethod.enum = ['PSE', 'NEQUI']), /createOnRamp.*request body: paymentMethod: enum value\(s\) DAVIPLATA removed/],
    ['a value added to a closed response enum', v1, (d: any) => schemas(d).TierEscalation.properties.actionType.enum.push('CALL_CENTER'), /createOnRamp.*response 201: tierEscalation<oneOf\[0\]>\.actionType: enum value\(s\) CALL_CENTER added/],
    ['a changed operationId', business, (d: any) => (d.paths['/api/parameters/banks'].get.operationId = 'getBanks'), /operationId changed from listBanks to getBanks/],
    ['a tightened length limit', v1, (d: any) => (schemas(d).CreateIntegrationEndpointRequest.properties.url.maxLength = 255), /request body: url: maxLength tightened to 255/],
    ['a response field that is no longer always present', business, (d: any) => (schemas(d).Webhook.required = schemas(d).Webhook.required.filter((n: string) => n !== 'status')), /deleteWebhook.*response 200: status: no longer always present/],
    ['a removed event', v1, (d: any) => delete d.webhooks['wallet.created'], /event wallet\.created: event removed/],
  ])('fails on %s, naming it', (_name, base, mutate, expected) => {
    expect(breakingWhat(base, mutate).join('\n')).toMatch(expected);
  });

  it('passes additive changes and lists them', () => {
    const changes = breaking(business, (d) => {
      schemas(d).BankAccount.properties.branchName = { type: 'string', description: 'Branch.' };
      d.paths['/api/accounts/{clientId}'].get.parameters.push({ name: 'status', in: 'query', required: false, schema: { type: 'string' } });
      d.paths['/api/parameters/banks'].get.responses['503'] = { description: 'Busy.' };
      schemas(d).CreateCustodyWalletRequest.properties.network.enum.push('STELLAR');
      schemas(d).CreateCustodyWalletRequest.properties.label = { type: 'string', description: 'Label.' };
      d.paths['/api/parameters/networks'] = { get: { operationId: 'listNetworks', responses: { '200': { description: 'ok' } } } };
    });
    expect(changes.filter((c) => c.breaking)).toEqual([]);
    expect(changes.map((c) => c.what)).toEqual(
      expect.arrayContaining([
        'response 200: [].branchName: optional field added',
        'optional parameter query status added',
        'response 503 added',
        'request body: network: enum value(s) STELLAR added',
        'request body: label: optional field added',
        'operation added',
      ]),
    );
  });
});
