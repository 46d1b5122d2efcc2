// What the source document states about the Business API, checked in the bundled description.
import { describe, expect, it } from 'vitest';
import { apiFamilies, readBundle } from '../../scripts/openapi/apis.js';
import { effectiveSchema, listOperations, resolveRef } from '../../src/client/lookup/index.js';
import { operationById, requestSchema, responseSchema } from '../../src/sandbox/contract/lookup.js';
import { createSchemaValidator } from '../../src/sandbox/contract/schema-validator.js';

const api = apiFamilies().find((a) => a.name === 'business');
if (!api) throw new Error('redocly.yaml declares no `business` API');
const doc = readBundle(api);
const schemas = doc.components?.schemas as Record<string, any>;
const validator = createSchemaValidator(doc);

describe('Business API description', () => {
  it('holds exactly the twelve operations consuming teams depend on, at the source paths', () => {
    const byId = Object.fromEntries(
      listOperations(doc).map((o) => [o.operationId, `${o.method.toUpperCase()} ${o.path}`]),
    );
    expect(byId).toEqual({
      createToken: 'POST /api/token',
      getClientInfo: 'GET /api/infoClient',
      listClientUsers: 'GET /api/b2b2b/{clientId}/users',
      createCustodyWallet: 'POST /api/b2b2b/{clientId}/wallet/custody/{userId}',
      listCustodyWallets: 'GET /api/b2b2b/{clientId}/wallet/custody/{userId}',
      getCustodyWalletBalance: 'GET /api/b2b2b/{clientId}/wallet/custody/{userId}/{walletId}/balance',
      listWalletTransfers: 'GET /api/b2b2b/{clientId}/wallet/transfer/{userId}',
      createWalletTransfer: 'POST /api/b2b2b/{clientId}/wallet/transfer/{userId}',
      listBankAccounts: 'GET /api/accounts/{clientId}',
      listBanks: 'GET /api/parameters/banks',
      listWebhooks: 'GET /api/webhooks/{clientId}',
      deleteWebhook: 'DELETE /api/webhooks/{clientId}/{webhook_id}',
    });
  });

  it('marks the paths the source does not show as inferred', () => {
    for (const id of ['getCustodyWalletBalance', 'createWalletTransfer', 'listWebhooks']) {
      expect(operationById(doc, id).operation['x-inferred']).toContain('path');
    }
  });

  it('secures every operation with the JWT bearer scheme except listBanks and createToken', () => {
    const scheme = (doc.components?.securitySchemes as Record<string, any> | undefined)?.bearerAuth;
    expect(scheme).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      'x-token-lifetime-seconds': 300,
    });
    expect(scheme.description).toMatch(/5 minutes/);
    for (const { operationId, operation } of listOperations(doc)) {
      const expected = ['listBanks', 'createToken'].includes(operationId) ? [] : [{ bearerAuth: [] }];
      expect(operation.security, operationId).toEqual(expected);
    }
  });

  it('offers a test and a production server, each with a base address variable', () => {
    const servers = doc.servers as any[];
    expect(servers.map((s) => s.description.split('.')[0])).toEqual(['Test deployment', 'Production deployment']);
    for (const server of servers) expect(server.url).toBe('{base_url}');
  });

  it('creates custody wallets on POLYGON unless SUI is asked for, and requires the token', () => {
    const body = requestSchema(doc, operationById(doc, 'createCustodyWallet'));
    expect(body.required).toEqual(['token']);
    expect(body.properties.network).toMatchObject({ enum: ['POLYGON', 'SUI'], default: 'POLYGON' });
  });

  it('lists at most 10 wallet transfers, filtered by status, date range and origin wallet', () => {
    const entry = operationById(doc, 'listWalletTransfers');
    const query: Record<string, any> = Object.fromEntries(
      entry.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]),
    );
    expect(Object.keys(query).sort()).toEqual(['finalDate', 'originWallet', 'startDate', 'status']);
    expect(Object.values(query).every((p) => p.required === false)).toBe(true);
    expect(query.startDate.schema.format).toBe('date');
    expect(query.finalDate.schema.format).toBe('date');
    expect(query.status.schema['x-extensible-enum']).toEqual(['pending', 'completed', 'cancelled']);
    const list = responseSchema(doc, entry, '200');
    expect(list.maxItems).toBe(10);
    expect(list.description).toMatch(/newest first/);
  });

  it('keeps registerDate in the service format YYYY-MM-DD HH:MM:SS.ffffff, not date-time', () => {
    const registerDate = { $ref: '#/components/schemas/RegisterDate' };
    expect(schemas.RegisterDate.format).toBeUndefined();
    expect(validator.validate(registerDate, '2026-10-14 15:32:07.418223')).toEqual([]);
    expect(validator.validate(registerDate, '2026-10-14T15:32:07.418Z')).not.toEqual([]);
    for (const name of ['CustodyWallet', 'WalletTransfer', 'BankAccount']) {
      expect(schemas[name].properties.registerDate.$ref, name).toBe('#/components/schemas/RegisterDate');
    }
  });

  it('delivers the bank directory id and status as strings, status as the text "true"', () => {
    const bank = { $ref: '#/components/schemas/Bank' };
    expect(validator.validate(bank, { id: '7', code: '1007', name: 'BANCOLOMBIA', status: 'true' })).toEqual([]);
    expect(validator.validate(bank, { id: 7, code: '1007', name: 'BANCOLOMBIA', status: true })).toEqual([
      '/id must be string',
      '/status must be string',
    ]);
  });

  it('closes only the value sets the source gives in full', () => {
    expect(schemas.BankAccount.properties.accountType.enum).toEqual(['ahorros', 'corriente']);
    expect(schemas.Webhook.properties.process.enum).toEqual(['ramp', 'compliance', 'wallet_transfer']);
    expect(schemas.BankAccount.properties.status).toMatchObject({
      type: 'string',
      'x-extensible-enum': ['in_review', 'accepted'],
    });
    expect(schemas.BankAccount.properties.status.enum).toBeUndefined();
    expect(schemas.WalletTransfer.properties.status.enum).toBeUndefined();
    expect(schemas.CustodyWallet.properties.status['x-extensible-enum']).toEqual(['accepted']);
  });

  it('fixes the state of a created wallet: accepted and custodial', () => {
    const created = effectiveSchema(doc, responseSchema(doc, operationById(doc, 'createCustodyWallet'), '200'));
    expect(created.properties.status.enum).toEqual(['accepted']);
    expect(created.properties.isCustodial.enum).toEqual([true]);
    expect(created.required).toEqual(expect.arrayContaining(['status', 'isCustodial', 'id', 'wallet']));
    expect(
      validator.validate(responseSchema(doc, operationById(doc, 'createCustodyWallet'), '200'), { status: 'JPRDQ' }),
    ).toContain('/status must be equal to one of the allowed values');
  });

  it('describes who may act, live balances and webhook deactivation', () => {
    const userId = resolveRef(
      doc,
      operationById(doc, 'createCustodyWallet').parameters.find((p) => p.name === 'userId'),
    );
    expect(userId.description).toMatch(/approved/);
    expect(operationById(doc, 'createCustodyWallet').operation.responses['403']).toEqual({
      $ref: '#/components/responses/UserNotApproved',
    });
    expect(operationById(doc, 'getCustodyWalletBalance').operation.description).toMatch(
      /live from the custody provider/,
    );
    const deleted = effectiveSchema(doc, responseSchema(doc, operationById(doc, 'deleteWebhook'), '200'));
    expect(deleted.properties.status.enum, 'a deleted webhook has status false').toEqual([false]);
    expect(deleted.required).toContain('status');
    expect(operationById(doc, 'deleteWebhook').operation.description).toMatch(/configuration is kept/);
  });

  it('documents at least one client error for every operation', () => {
    for (const { operationId, operation } of listOperations(doc)) {
      expect(
        Object.keys(operation.responses).some((code) => code.startsWith('4')),
        operationId,
      ).toBe(true);
    }
  });
});
