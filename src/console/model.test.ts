// The console's reasoning without a browser: it starts from the description's examples, checks a request and an
// answer with the sandbox's own route checks (an undocumented status, a missing field and a wrong type named with
// their JSON pointers), and its samples carry the call as sent but never a credential.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { runtimeSchemaValidator } from '../sandbox/contract/ajv-setup.js';
import { readBundleFile } from '../sandbox/contract/document.js';
import { operationById } from '../sandbox/contract/lookup.js';
import { createRouter } from '../sandbox/contract/router.js';
import { buildCall, checkAnswer, initialInputs, inputKey, requestProblems } from './model.js';
import { type ClientInfo, credentialLines, curlLine, type SampleInput, typeScriptSample } from './samples.js';

const family = (name: string) => {
  const doc = readBundleFile(name);
  const { routes } = createRouter([{ family: name, doc }], (_f, d) =>
    runtimeSchemaValidator({ Ajv2020, addFormats: addFormats as never }, d),
  );
  const at = (operationId: string) => ({
    entry: operationById(doc, operationId),
    route: routes.find((r) => r.entry.operationId === operationId)!,
  });
  return { doc, at };
};

describe('a request', () => {
  it("starts from the description's examples, and follows it", () => {
    const v1 = family('v1');
    const { entry, route } = v1.at('registerUser');
    const inputs = initialInputs(v1.doc, entry);
    expect(JSON.parse(inputs.bodyText)).toHaveProperty('first_name');
    expect(requestProblems(route, entry, buildCall(entry, inputs))).toEqual([]);
  });

  it('that breaks the description is named where it breaks, before it is sent', () => {
    const v1 = family('v1');
    const { entry, route } = v1.at('registerUser');
    const inputs = initialInputs(v1.doc, entry);
    const body = { ...JSON.parse(inputs.bodyText), first_name: 5 };
    delete body.email;
    const problems = requestProblems(route, entry, buildCall(entry, { ...inputs, bodyText: JSON.stringify(body) }));
    expect(problems).toContainEqual({ where: 'body /first_name', message: 'must be string' });
    expect(problems).toContainEqual({ where: 'body', message: "must have required property 'email'" });
    const missing = {
      ...inputs,
      values: { ...inputs.values, [inputKey({ in: 'header', name: 'x-integration-register' })]: '' },
    };
    expect(requestProblems(route, entry, buildCall(entry, missing))).toContainEqual({
      where: 'header x-integration-register',
      message: 'is required',
    });
  });
});

describe('an answer', () => {
  const business = family('business');
  const { entry, route } = business.at('listBanks');

  it('that follows the description says so', () => {
    const body = JSON.stringify([{ id: '1', code: '1007', name: 'Bancolombia', status: 'true' }]);
    expect(checkAnswer(route, entry, 200, body)).toEqual({ documented: '200', problems: [] });
  });

  it('names a missing field and a wrong type by their JSON pointers, in the schema words', () => {
    const verdict = checkAnswer(route, entry, 200, JSON.stringify([{ id: 7, code: '1007', status: 'true' }]));
    expect(verdict.problems).toContainEqual({ where: '/0', message: "must have required property 'name'" });
    expect(verdict.problems).toContainEqual({ where: '/0/id', message: 'must be string' });
  });

  it('with an undocumented status says which are documented', () => {
    const verdict = checkAnswer(route, entry, 418, '{}');
    expect(verdict.problems[0]!.message).toMatch(/^418 is not documented for listBanks \(documented: 200, /);
  });
});

describe('the samples', () => {
  const business = family('business');
  // As the site's build describes the Business API's client (scripts/site/console-build.ts).
  const client: ClientInfo = {
    create: 'createBusinessClient',
    from: 'ramp-api',
    variable: 'business',
    auth: 'credentials',
    env: { url: 'BUSINESS_API_URL', secret: 'BUSINESS_API_CREDENTIALS' },
    token: { operationId: 'createToken', method: 'post', path: '/api/token' },
  };
  const input = (operationId: string, extra: Partial<SampleInput> = {}): SampleInput => {
    const { entry } = business.at(operationId);
    return {
      client,
      baseUrl: 'http://127.0.0.1:45123',
      operationId,
      method: entry.method,
      path: entry.path,
      secured: entry.operation.security?.length !== 0,
      signed: false,
      takesBody: entry.operation.requestBody !== undefined,
      call: buildCall(entry, initialInputs(business.doc, entry)),
      extraHeaders: {},
      ...extra,
    };
  };

  it('show the call with its parameters and headers, and sign in from the environment', () => {
    const sample = input('listBankAccounts', { extraHeaders: { Prefer: 'code=404' } });
    const ts = typeScriptSample(sample);
    expect(ts).toContain("import { createBusinessClient } from 'ramp-api';");
    expect(ts).toContain("auth: { credentials: JSON.parse(process.env.BUSINESS_API_CREDENTIALS ?? '{}') },");
    expect(ts).toContain('business.listBankAccounts({');
    expect(ts).toContain("Prefer: 'code=404'");
    const curl = curlLine(sample);
    expect(curl).toContain('-H "Authorization: Bearer $BUSINESS_API_TOKEN"');
    expect(curl).toContain("-H 'Prefer: code=404'");
  });

  it('never hold the credentials the token operation sends', () => {
    const secret = 'sbx-secret-never-shown';
    const { entry } = business.at('createToken');
    const call = {
      ...buildCall(entry, initialInputs(business.doc, entry)),
      body: { clientId: 'c', clientSecret: secret },
    };
    const sample = input('createToken', { call, credentialsBody: true });
    expect(typeScriptSample(sample)).not.toContain(secret);
    expect(typeScriptSample(sample)).toContain("body: JSON.parse(process.env.BUSINESS_API_CREDENTIALS ?? '{}'),");
    expect(curlLine(sample)).not.toContain(secret);
    expect(curlLine(sample)).toContain('--data-raw "$BUSINESS_API_CREDENTIALS"');
  });

  it('set what the samples read from the credentials the reader asked for, in a shell and in TypeScript', () => {
    const secret = { clientId: 'c-1', clientSecret: "it's secret" };
    const lines = credentialLines(client, 'http://127.0.0.1:45123', secret);
    expect(lines.shell.split('\n')).toEqual([
      "export BUSINESS_API_URL='http://127.0.0.1:45123'",
      `export BUSINESS_API_CREDENTIALS='{"clientId":"c-1","clientSecret":"it'\\''s secret"}'`,
      `export BUSINESS_API_TOKEN="$(curl -s -X POST 'http://127.0.0.1:45123/api/token' -H 'Content-Type: application/json' --data-raw "$BUSINESS_API_CREDENTIALS" | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')"`,
      '',
    ]);
    expect(lines.typeScript).toBe(
      `process.env.BUSINESS_API_CREDENTIALS = '{"clientId":"c-1","clientSecret":"it\\'s secret"}';\n`,
    );
  });
});
