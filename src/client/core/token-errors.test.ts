// The errors of a first hour name the call, its URL and status, and the likely cause with its fix, against a
// running sandbox; and never show a credential. Each case is one a newcomer meets.
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/local-server.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { ApiError, createBusinessClient, createV1Client, NetworkError, orThrow, TokenError } from '../index.js';
import { createSandboxClient } from '../sandbox/index.js';

const sandbox = useSandbox();
let tenant: {
  clientId: string;
  businessCredentials: { clientId: string; clientSecret: string };
  v1Credentials: { clientId: string; clientSecret: string };
};
beforeAll(async () => {
  tenant = await orThrow(createSandboxClient({ baseUrl: sandbox.url }).createTenant({ body: { name: 'First hour' } }));
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error as Error,
  );
/** Every way an error can be shown: message, String, stack, JSON, util.inspect, and each enumerable property. */
const renderings = (error: Error) => [
  error.message,
  String(error),
  error.stack ?? '',
  JSON.stringify(error),
  inspect(error, { depth: 10, showHidden: true }),
  ...Object.values(error).map((value) => JSON.stringify(value) ?? String(value)),
];
function expectNoSecret(error: Error, ...secrets: string[]) {
  for (const shown of renderings(error)) for (const secret of secrets) expect(shown).not.toContain(secret);
}

describe('a baseUrl with a path the operations already carry', () => {
  it('names the token call, its URL and status, and the baseUrl to use instead', async () => {
    const { businessCredentials, v1Credentials } = tenant;
    const business = createBusinessClient({
      baseUrl: `${sandbox.url}/api`,
      auth: { credentials: businessCredentials },
    });
    const v1 = createV1Client({ baseUrl: `${sandbox.url}/api/`, auth: { credentials: v1Credentials } });
    const errors = [await failure(business.getClientInfo()), await failure(v1.listAdminBanks())];
    expect(errors[0]).toBeInstanceOf(TokenError);
    expect(errors[0]!.message).toBe(
      `The token call createToken (POST ${sandbox.url}/api/api/token) failed with HTTP 404: likely cause: \`baseUrl\` has the path /api, which the operations' paths already carry; fix: \`baseUrl: '${sandbox.url}'\`.`,
    );
    expect(errors[1]!.message).toContain(`createClientToken (POST ${sandbox.url}/api/api/v1/client/token)`);
    expect(errors[1]!.message).toContain("has the path /api, which the operations' paths already carry");
    expect(errors[1]!.message).toContain(`fix: \`baseUrl: '${sandbox.url}'\``);
    expectNoSecret(errors[0]!, businessCredentials.clientSecret);
    expectNoSecret(errors[1]!, v1Credentials.clientSecret);
  });

  it('says the same in the error of an operation called there', async () => {
    const business = createBusinessClient({ baseUrl: `${sandbox.url}/api` });
    const error = await failure(orThrow(business.listBanks()));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      `listBanks (GET /api/parameters/banks) failed with HTTP 404: not_found: No operation for GET /api/api/parameters/banks; likely cause: \`baseUrl\` has the path /api, which the operations' paths already carry; fix: \`baseUrl: '${sandbox.url}'\``,
    );
    expect((error as ApiError).url).toBe(`${sandbox.url}/api/api/parameters/banks`);
  });

  it('gives the fix for a baseUrl ending with /api/v1, for both families', async () => {
    const v1 = createV1Client({ baseUrl: `${sandbox.url}/api/v1`, auth: { credentials: tenant.v1Credentials } });
    const tokenError = await failure(v1.listAdminBanks());
    expect(tokenError).toBeInstanceOf(TokenError);
    expect(tokenError.message).toContain(
      `has the path /api/v1, which the operations' paths already carry; fix: \`baseUrl: '${sandbox.url}'\``,
    );
    const business = createBusinessClient({ baseUrl: `${sandbox.url}/api/v1` });
    const apiError = await failure(orThrow(business.listBanks()));
    expect(apiError.message).toMatch(
      /likely cause: `baseUrl` has the path \/api\/v1, which the operations' paths already carry; fix: `baseUrl: 'http:\/\/127\.0\.0\.1:\d+'`$/,
    );
  });

  it('names another path before the operations as such, and no path as no cause of its own', async () => {
    const elsewhere = createBusinessClient({ baseUrl: `${sandbox.url}/ramp` });
    expect((await failure(orThrow(elsewhere.listBanks()))).message).toMatch(
      /failed with HTTP 404: not_found: No operation for GET \/ramp\/api\/parameters\/banks; likely cause: `baseUrl` has the path \/ramp$/,
    );
    const plain = createBusinessClient({ baseUrl: sandbox.url });
    const missing = await failure(orThrow(plain.GET('/api/nothing-here' as never)));
    expect(missing.message).toBe(
      'request (GET /api/nothing-here) failed with HTTP 404: not_found: No operation for GET /api/nothing-here.',
    );
  });
});

describe('credentials the token call refuses', () => {
  it('names credentials of the other API as a likely cause, both ways, without showing them', async () => {
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.businessCredentials } });
    const wrongForV1 = await failure(v1.listAdminBanks());
    expect(wrongForV1).toBeInstanceOf(TokenError);
    expect(wrongForV1).toMatchObject({ status: 401 });
    expect(wrongForV1.message).toContain(
      `The token call createClientToken (POST ${sandbox.url}/api/v1/client/token) failed with HTTP 401`,
    );
    expect(wrongForV1.message).toContain(
      "failed with HTTP 401: likely cause: the Business API's credentials (this client takes `v1Credentials`) or unknown ones.",
    );
    expectNoSecret(wrongForV1, tenant.businessCredentials.clientSecret, tenant.v1Credentials.clientSecret);

    const business = createBusinessClient({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
    const wrongForBusiness = await failure(business.getClientInfo());
    expect(wrongForBusiness.message).toContain(`createToken (POST ${sandbox.url}/api/token) failed with HTTP 401`);
    expect(wrongForBusiness.message).toContain(
      "likely cause: the v1 API's credentials (this client takes `businessCredentials`) or unknown ones.",
    );
    expectNoSecret(wrongForBusiness, tenant.v1Credentials.clientSecret);
  });

  it('names credentials no client of the deployment has', async () => {
    const secret = 'made-up-secret-value-9f3c';
    const business = createBusinessClient({
      baseUrl: sandbox.url,
      auth: { credentials: { clientId: crypto.randomUUID(), clientSecret: secret } },
    });
    const error = await failure(business.getClientInfo());
    expect(error).toMatchObject({ name: 'TokenError', status: 401 });
    expect(error.message).toBe(
      `The token call createToken (POST ${sandbox.url}/api/token) failed with HTTP 401: likely cause: the v1 API's credentials (this client takes \`businessCredentials\`) or unknown ones.`,
    );
    expectNoSecret(error, secret);
  });

  it('does not send empty credentials, and names the field that has no value', async () => {
    let sent = 0;
    const counting = ((input: Request, init?: RequestInit) => {
      sent++;
      return fetch(input, init);
    }) as typeof fetch;
    for (const credentials of [{}, { clientId: '', clientSecret: '  ' }, { clientId: undefined }]) {
      const v1 = createV1Client({ baseUrl: sandbox.url, fetch: counting, auth: { credentials } });
      const error = await failure(v1.listAdminBanks());
      expect(error).toBeInstanceOf(TokenError);
      expect(error.message).toBe(
        `The token call createClientToken (POST ${sandbox.url}/api/v1/client/token) was not sent: likely cause: empty \`auth.credentials\` (variables not set?); fix: pass \`v1Credentials\`.`,
      );
    }
    expect(sent).toBe(0);
    const halfEmpty = createBusinessClient({
      baseUrl: sandbox.url,
      fetch: counting,
      auth: { credentials: { clientId: tenant.clientId, clientSecret: '' } },
    });
    const error = await failure(halfEmpty.getClientInfo());
    expect(error.message).toBe(
      `The token call createToken (POST ${sandbox.url}/api/token) failed with HTTP 401: likely cause: no value for clientSecret.`,
    );
    expect(sent).toBe(1);
  });
});

describe('a sandbox that is not running', () => {
  it('says that nothing listens at the address, for the token call and for an operation', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const host = baseUrl.slice('http://'.length);
    const business = createBusinessClient({ baseUrl, auth: { credentials: tenant.businessCredentials } });
    const tokenError = await failure(business.getClientInfo());
    expect(tokenError).toBeInstanceOf(TokenError);
    expect(tokenError.message).toMatch(
      new RegExp(`^The token call createToken \\(POST ${baseUrl}/api/token\\) failed: `),
    );
    expect(tokenError.message).toMatch(
      new RegExp(
        `\\(ECONNREFUSED\\); likely cause: nothing listens at ${host}; fix: start the sandbox or service there$`,
      ),
    );
    expectNoSecret(tokenError, tenant.businessCredentials.clientSecret);

    const operationError = await failure(createBusinessClient({ baseUrl, retry: false }).listBanks());
    expect(operationError).toBeInstanceOf(NetworkError);
    expect(operationError.message).toContain(`(ECONNREFUSED); likely cause: nothing listens at ${host}; fix: start`);
  });
});

describe('a refusal, where the test runner shows it', () => {
  it("says the service's error code and message in the message of the ApiError", async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const { clientId } = tenant;
    const account = await orThrow(control.createBankAccount({ body: { clientId } }));
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
    const body = { amount: 1_000, currency: 'COP', destinationId: account.accountId, paymentMethod: 'ACH' } as const;
    const error = await failure(orThrow(v1.createPayout({ params: { path: { user_id: clientId } }, body })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(
      /^createPayout \(POST \/api\/v1\/admin\/fiats\/\{user_id\}\/payout\) failed with HTTP 422: destination_not_approved: \S.{10,}$/,
    );
    expectNoSecret(error, tenant.v1Credentials.clientSecret);
  });
});
