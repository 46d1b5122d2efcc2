// A refusal says why in the error's message, where a test runner shows it: the service's error code and message,
// bounded and on one line, never a token or a credential. Against servers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { ApiError, createBusinessClient, createV1Client, orThrow, TokenError } from '../index.js';

const USER_ID = '3c9f6a2e-1b7d-4f05-9e84-6a2d0c7b5e91';
const SECRET = 's3cr3t-client-password';
const TOKEN = 'tok-SECRET-1234567890';
const credentials = { clientId: '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13', clientSecret: SECRET };
const payout = { amount: 1500000, currency: 'COP', destinationId: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16' };

let servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
/** A service whose operations answer `status` with `body`, and whose token calls answer `token`. */
async function service(
  status: number,
  body: unknown,
  token: { status: number; body: unknown } = { status: 200, body: { accessToken: TOKEN } },
) {
  const server = await startLocalServer((req, res) =>
    req.url?.endsWith('/token') ? json(res, token.status, token.body) : json(res, status, body),
  );
  servers.push(server);
  return server;
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error as Error,
  );
const refusedPayout = async (status: number, body: unknown) => {
  const server = await service(status, body);
  const v1 = createV1Client({ baseUrl: server.url, auth: { credentials } });
  return failure(orThrow(v1.createPayout({ params: { path: { user_id: USER_ID } }, body: payout as never })));
};

describe("ApiError's message", () => {
  it("carries the service's error code and message", async () => {
    const error = await refusedPayout(422, {
      error: 'destination_not_approved',
      message: 'The destination must be an accepted bank account of this user.',
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      'createPayout (POST /api/v1/admin/fiats/{user_id}/payout) failed with HTTP 422: destination_not_approved: The destination must be an accepted bank account of this user.',
    );
  });

  it('reads the usual shapes of an error body, and says nothing of a body that has neither', async () => {
    const shapes: [unknown, string][] = [
      [{ code: 'invalid_amount', message: 'Amount must be positive.' }, ': invalid_amount: Amount must be positive.'],
      [{ error: { code: 'limit', message: 'Over the limit.' } }, ': limit: Over the limit.'],
      [{ error: 'invalid_request' }, ': invalid_request'],
      [{ title: 'Bad Request', detail: 'amount is missing' }, ': amount is missing'],
      [{ reason: 42 }, ''],
      ['plain', ''],
    ];
    for (const [body, said] of shapes)
      expect((await refusedPayout(400, body)).message).toBe(
        `createPayout (POST /api/v1/admin/fiats/{user_id}/payout) failed with HTTP 400${said}`,
      );
  });

  it('is bounded and on one line, whatever the service sends', async () => {
    const error = await refusedPayout(422, {
      error: 'x'.repeat(5000),
      message: `line one\nline two\u0000${'y'.repeat(5000)}`,
    });
    const reason = error.message.slice(error.message.indexOf('HTTP 422'));
    expect(reason.length).toBeLessThanOrEqual(320);
    expect(error.message).not.toMatch(/\p{Cc}/u);
    expect(error.message).toContain('…');
  });

  it('never shows the token the call sent, echoed back in the message', async () => {
    const error = await refusedPayout(401, { error: 'unauthorized', message: `Token ${TOKEN} is unknown.` });
    expect(error.message).toContain('failed with HTTP 401: unauthorized: Token [REDACTED] is unknown.');
    expect(error.message).not.toContain(TOKEN);
  });
});

describe("TokenError's message", () => {
  // The source shows no error body of the token calls: a deployment's may echo the credentials in a form the
  // client cannot recognise, so none of it is shown; the likely cause says in the client's words what it would.
  it("shows nothing of the token call's body, not even its code, and says the likely cause", async () => {
    for (const message of [
      'These credentials belong to no client.',
      `Unknown: ${btoa(`${credentials.clientId}:${SECRET}`)}`,
    ]) {
      const server = await service(200, [], { status: 401, body: { error: 'invalid_client', message } });
      const business = createBusinessClient({ baseUrl: server.url, auth: { credentials } });
      const error = await failure(business.getClientInfo());
      expect(error).toBeInstanceOf(TokenError);
      expect(error.message).toMatch(
        /^The token call createToken \(POST http:\/\/127\.0\.0\.1:\d+\/api\/token\) failed with HTTP 401: likely cause: /,
      );
      expect(error.message).not.toMatch(/invalid_client|credentials belong|Unknown/);
    }
  });
});
