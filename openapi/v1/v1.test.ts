// What the source document states about the v1 API and its events, checked in the bundled description.
import { describe, expect, it } from 'vitest';
import { apiFamilies, readBundle } from '../../scripts/openapi/apis.js';
import { effectiveSchema, listOperations, resolveRef } from '../../src/client/lookup/index.js';
import { operationById, requestSchema, responseSchema } from '../../src/sandbox/contract/lookup.js';
import { createSchemaValidator } from '../../src/sandbox/contract/schema-validator.js';

const api = apiFamilies().find((a) => a.name === 'v1');
if (!api) throw new Error('redocly.yaml declares no `v1` API');
const doc = readBundle(api);
const schemas = doc.components?.schemas as Record<string, any>;
const validator = createSchemaValidator(doc);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const onRamp = {
  amount: 500000,
  phone: '+573104567890',
  destination: { type: 'EXTERNAL', externalWalletId: '2d7f4a9c-6e1b-4c35-8b02-7a9e3d5f1c68' },
};

describe('v1 API description', () => {
  it('holds exactly the nine operations consuming teams depend on', () => {
    const byId = Object.fromEntries(
      listOperations(doc).map((o) => [o.operationId, `${o.method.toUpperCase()} ${o.path}`]),
    );
    expect(byId).toEqual({
      createClientToken: 'POST /api/v1/client/token',
      listAdminUsers: 'GET /api/v1/admin/users',
      listAdminAccounts: 'GET /api/v1/admin/accounts',
      listAdminBanks: 'GET /api/v1/admin/banks',
      registerUser: 'POST /api/v1/users/register',
      generateKycUrl: 'POST /api/v1/provider/kyc/user/generateurl/{user_id}',
      createPayout: 'POST /api/v1/admin/fiats/{user_id}/payout',
      createOnRamp: 'POST /api/v1/admin/fiats/{user_id}/onramp',
      createIntegrationEndpoint: 'POST /api/v1/integration-endpoints',
    });
    for (const id of ['listAdminAccounts', 'listAdminBanks', 'createOnRamp']) {
      expect(operationById(doc, id).operation['x-inferred'], id).toContain('path');
    }
  });

  it('needs a bearer token everywhere except the token call', () => {
    for (const { operationId, operation } of listOperations(doc)) {
      expect(operation.security, operationId).toEqual(operationId === 'createClientToken' ? [] : [{ bearerAuth: [] }]);
    }
  });

  it('registers users with the x-integration-register header and the snake_case body the source lists', () => {
    const entry = operationById(doc, 'registerUser');
    expect(entry.parameters.find((p) => p.in === 'header')).toMatchObject({
      name: 'x-integration-register',
      required: true,
    });
    const body = requestSchema(doc, entry);
    expect([...body.required].sort()).toEqual(
      [
        'first_name',
        'second_name',
        'first_surname',
        'second_surname',
        'birth_date',
        'cell_phone_number',
        'email',
        'home_info',
        'document_type',
        'document_number',
        'document_issue_date',
        'document_issuance_country',
        'occupation',
        'incomes',
        'expenses',
        'total_assets',
        'total_liabilities',
        'is_pep',
        'kyc_validations',
        'identity_verification',
        'supporting_documents',
      ].sort(),
    );
    expect(body.properties.external_user_id.format).toBe('uuid');
    expect(body.properties.birth_date.format).toBe('date');
    expect(body.properties.document_issue_date.format).toBe('date');
    expect(body.properties.email.format).toBe('email');
    expect(body.properties.document_type.enum).toEqual(['CC']);
    expect(schemas.HomeInfo.required).toEqual([
      'neighborhood',
      'address_home',
      'country_home',
      'city_home',
      'department',
    ]);
    expect(body.properties.incomes.required).toEqual(['monthly_incomes']);
    expect(body.properties.expenses.required).toEqual(['month_expenses']);
    expect(body.properties.international_operations_info.required).toBeUndefined();
  });

  it('answers a registration in camelCase, pending, with the second surname in lastName', () => {
    const answer = responseSchema(doc, operationById(doc, 'registerUser'), '201');
    expect(answer).toBe(schemas.RegisteredUser);
    expect(schemas.RegisteredUserData.properties.status.enum).toEqual(['pending']);
    expect(schemas.RegisteredUserData.properties.complianceStatus.enum).toEqual(['pending']);
    for (const field of ['tradeName', 'clientType', 'constitutionCountryId'])
      expect(schemas.RegisteredUserData.properties[field].type).toContain('null');
    expect(schemas.Person.properties.isJuridic.type).toEqual(['boolean', 'null']);
    expect(schemas.Person.properties.lastName.description).toMatch(/second surname/);
    expect(schemas.Person.properties.middleName.description).toMatch(/second given name/);
    expect(schemas.ContactData.properties.dataTypeContact.enum).toEqual(['email', 'phone']);
    expect(schemas.AdditionalInfo.properties.additionalInfoTypeSku['x-extensible-enum']).toEqual([
      'onrampmultiplier',
      'offrampmultiplier',
    ]);
  });

  it('generates a KYC link from user_id and two optional query parameters, with no body', () => {
    const entry = operationById(doc, 'generateKycUrl');
    expect(entry.parameters.map((p) => [p.in, p.name, p.required])).toEqual([
      ['path', 'user_id', true],
      ['query', 'template_id', false],
      ['query', 'custom_metadata_name', false],
    ]);
    expect(entry.operation.requestBody).toBeUndefined();
    expect(responseSchema(doc, entry, '200').required).toEqual(['url']);
  });

  it('creates payouts from amount, currency and an APPROVED destination, starting PENDING', () => {
    const entry = operationById(doc, 'createPayout');
    const body = requestSchema(doc, entry);
    expect(body.required).toEqual(['amount', 'currency', 'destinationId']);
    expect(body.properties.destinationId).toMatchObject({
      format: 'uuid',
      description: expect.stringMatching(/APPROVED/),
    });
    expect(schemas.Payout.properties.status['x-extensible-enum']).toEqual(['PENDING']);
    expect(
      effectiveSchema(doc, responseSchema(doc, entry, '201')).properties.status.enum,
      'a new payout is PENDING',
    ).toEqual(['PENDING']);
    expect(entry.operation.description).toMatch(/debit source/);
    for (const status of ['400', '422'])
      expect(resolveRef(doc, entry.operation.responses[status])['x-inferred']).toContain('status');
  });

  it('validates on-ramps: defaults, amount strictly above 0, EXTERNAL destination, bankCode for PSE', () => {
    const body = ref('CreateOnRampRequest');
    expect(schemas.CreateOnRampRequest.properties.paymentMethod).toMatchObject({
      enum: ['PSE', 'NEQUI', 'DAVIPLATA'],
      default: 'DAVIPLATA',
    });
    expect(schemas.CreateOnRampRequest.properties.executionMode).toMatchObject({
      enum: ['NORMAL', 'INVERSE'],
      default: 'NORMAL',
    });
    expect(validator.validate(body, onRamp)).toEqual([]);
    expect(validator.validate(body, { ...onRamp, amount: 0.01 })).toEqual([]);
    expect(validator.validate(body, { ...onRamp, amount: 0 })).toEqual(['/amount must be > 0']);
    expect(validator.validate(body, { ...onRamp, amount: -5 })).toEqual(['/amount must be > 0']);
    expect(
      validator.validate(body, {
        ...onRamp,
        destination: { type: 'INTERNAL', externalWalletId: onRamp.destination.externalWalletId },
      }),
    ).toContain('/destination/type must be equal to one of the allowed values');
    expect(validator.validate(body, { ...onRamp, paymentMethod: 'PSE' })).toContain(
      "(root) must have required property 'bankCode'",
    );
    expect(validator.validate(body, { ...onRamp, paymentMethod: 'PSE', bankCode: '1007' })).toEqual([]);
  });

  it('answers an on-ramp with operation, a nullable tierEscalation of six action types, and a nullable depositInfo', () => {
    const envelope = ref('CreateOnRampResponse');
    expect(schemas.CreateOnRampResponse.required).toEqual(['operation', 'tierEscalation', 'depositInfo']);
    expect(schemas.TierEscalation.properties.actionType.enum).toEqual([
      'FORM_URL',
      'QR_APP',
      'VIDEO_KYC',
      'DOC_UPLOAD',
      'NOTIFY_ONLY',
      'BLOCK',
    ]);
    const example = resolveRef(
      doc,
      operationById(doc, 'createOnRamp').operation.responses['201'].content['application/json'].examples
        .awaitingDeposit,
    );
    expect(validator.validate(envelope, { ...example.value, tierEscalation: null, depositInfo: null })).toEqual([]);
    expect(
      validator.validate(envelope, {
        ...example.value,
        tierEscalation: { actionType: 'CALL_US', actionPayload: {}, message: '', expiresAt: '' },
      }),
    ).not.toEqual([]);
  });

  it('documents the on-ramp refusals 400, 403 and 422 with a named example for each condition', () => {
    const responses = operationById(doc, 'createOnRamp').operation.responses;
    const examplesOf = (status: string) =>
      Object.keys(resolveRef(doc, responses[status]).content['application/json'].examples);
    expect(examplesOf('400')).toEqual(['insufficientFunds']);
    expect(examplesOf('403')).toEqual(['userNotApproved']);
    expect(examplesOf('422')).toEqual([
      'invalidBody',
      'amountNotPositive',
      'assetPairNotEnabled',
      'destinationNotUsable',
      'tierLimitExceeded',
    ]);
  });

  it('registers webhook endpoints with a unique name, a url of at most 500 characters and the source defaults', () => {
    const request = schemas.CreateIntegrationEndpointRequest;
    expect(request.required).toEqual(['name', 'direction', 'url', 'httpMethod']);
    expect(request.properties.direction.enum).toEqual(['OUTBOUND']);
    expect(request.properties.httpMethod.enum).toEqual(['POST']);
    expect(request.properties.authType).toMatchObject({ default: 'NONE', 'x-extensible-enum': ['NONE'] });
    const minimal = { name: 'n', direction: 'OUTBOUND', httpMethod: 'POST' };
    expect(
      validator.validate(ref('CreateIntegrationEndpointRequest'), {
        ...minimal,
        url: `https://h.example/${'a'.repeat(500 - 18)}`,
      }),
    ).toEqual([]);
    expect(
      validator.validate(ref('CreateIntegrationEndpointRequest'), {
        ...minimal,
        url: `https://h.example/${'a'.repeat(501 - 18)}`,
      }),
    ).toEqual(['/url must NOT have more than 500 characters']);
    expect(schemas.IntegrationEndpoint.properties.registerDate.format).toBe('date-time');
  });

  it('lists the fifteen events as webhooks, the same set triggerEvent accepts', () => {
    const names = Object.keys(doc.webhooks ?? {});
    expect(names).toHaveLength(15);
    expect(names).toEqual(schemas.EventName.enum);
    for (const name of names) {
      const post = (doc.webhooks as Record<string, any>)[name].post;
      expect(post.requestBody.content['application/json'].schema).toEqual(ref('EventPayload'));
      expect(post['x-inferred'], name).toContain('payload');
    }
  });

  it('lets code derive the delivery schedule from the description (max_attempts counts calls: "Webhook attempts: 3 by default"): 30 s timeout, 3 calls, delays 1 s, 4 s', () => {
    const request = schemas.CreateIntegrationEndpointRequest.properties;
    const retry = schemas.RetryConfig.properties;
    const delays = Array.from(
      { length: retry.max_attempts.default - 1 },
      (_, i) => retry.initial_delay_ms.default * retry.multiplier.default ** i,
    );
    expect({ timeoutMs: request.timeoutMs.default, calls: retry.max_attempts.default, delays }).toEqual({
      timeoutMs: 30000,
      calls: 3,
      delays: [1000, 4000],
    });
    // The reading is stated where a reader meets the field, with its reason.
    expect(schemas.RetryConfig.description).toMatch(/`max_attempts` calls in all, the first one\s+included/);
    expect(schemas.RetryConfig['x-inferred']).toContain('meaning of max_attempts');
    expect(schemas.RetryConfig.description).toMatch(
      /Inferred: the source's limits table gives "Webhook attempts: 3 by default"/,
    );
  });
});
