// Two sandboxes in one process share nothing that belongs to one of them: a token one of them issued and
// verified is refused by the other, and each keeps its own caches (a documented use of startSandbox).
import { describe, expect, it } from 'vitest';
import { orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import type { Sandbox } from '../server.js';
import { REFUSALS } from './refusals.js';

const first = useSandbox();
const second = useSandbox();

async function businessToken(sandbox: Sandbox): Promise<string> {
  const tenant = await orThrow(createSandboxClient({ baseUrl: sandbox.url }).createTenant({ body: { name: 'One' } }));
  const answer = await fetch(`${sandbox.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(tenant.businessCredentials),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

const clientInfo = (sandbox: Sandbox, token: string) =>
  fetch(`${sandbox.url}/api/infoClient`, { headers: { authorization: `Bearer ${token}` } });

describe('two sandboxes in one process', () => {
  it('refuse each other’s tokens, even one the other has just verified', async () => {
    const token = await businessToken(first);
    // Verified (and remembered) by the sandbox that issued it.
    expect((await clientInfo(first, token)).status).toBe(200);
    const elsewhere = await clientInfo(second, token);
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as { error: string }).error).toBe(REFUSALS.unauthorized.code);
  });

  it('forget their own tokens on resetSandbox, without touching the other’s', async () => {
    const [one, two] = await Promise.all([businessToken(first), businessToken(second)]);
    expect((await clientInfo(first, one)).status).toBe(200);
    expect((await clientInfo(second, two)).status).toBe(200);
    await orThrow(createSandboxClient({ baseUrl: first.url }).resetSandbox());
    expect((await clientInfo(first, one)).status).toBe(401);
    expect((await clientInfo(second, two)).status).toBe(200);
  });
});
