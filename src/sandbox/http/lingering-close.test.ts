// A body over the limit is answered 413, and the client reads that answer even when it writes its whole body
// before reading anything: the sandbox closes its writing side, drains what the client still sends for a bounded
// time and number of bytes, then closes (./lingering-close.ts). Closed at once, with the body unread, the
// connection was reset, and the reset could discard the answer before the client read it.
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { businessOperations } from '../../client/generated/business-meta.js';
import { v1Operations } from '../../client/generated/v1-meta.js';
import { orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { statusAfterWholeBody } from '../../testing/raw-http.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { fundedExampleUser, sandboxToken } from '../../testing/sandbox-users.js';

const TIMES = 100;
/** Twice the most the sandbox reads of a body. */
const BODY_BYTES = 2 * 1024 * 1024;

const sandbox = useSandbox();
const targets: { name: string; target: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  const control = createSandboxClient({ baseUrl: sandbox.url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Large bodies' } }));
  const { userId } = await fundedExampleUser(sandbox.url, tenant, 1000);
  const business = `Bearer ${await sandboxToken(sandbox.url, 'business', tenant.businessCredentials)}`;
  const v1 = `Bearer ${await sandboxToken(sandbox.url, 'v1', tenant.v1Credentials)}`;
  targets.push(
    { name: 'createToken', target: businessOperations.createToken.path, headers: {} },
    {
      name: 'createCustodyWallet',
      target: businessOperations.createCustodyWallet.path
        .replace('{clientId}', tenant.clientId)
        .replace('{userId}', userId),
      headers: { authorization: business },
    },
    {
      name: 'createPayout',
      target: v1Operations.createPayout.path.replace('{user_id}', userId),
      headers: { authorization: v1, 'x-integration-register': tenant.integrationRegister },
    },
  );
}, 60_000);

it(`answers a ${BODY_BYTES / 2 ** 20} MiB body 413, read by a client that writes it whole first, ${TIMES} times in a row`, async () => {
  const body = randomBytes(BODY_BYTES);
  const results: (number | string)[] = [];
  for (let i = 0; i < TIMES; i++) {
    const { target, headers } = targets[i % targets.length]!;
    results.push(await statusAfterWholeBody(sandbox.url, { method: 'POST', target, headers, body }));
  }
  const missed = results.map((r, i) => [targets[i % targets.length]!.name, r]).filter(([, r]) => r !== 413);
  expect(missed, `${missed.length} of ${TIMES} answers not read as 413`).toEqual([]);
}, 120_000);
