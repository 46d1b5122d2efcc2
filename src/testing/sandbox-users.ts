// Test and bench support: registers the v1 description's example person as a user of a sandbox tenant, over
// the v1 API itself (so it is a real record), and returns the user's ID. `changes` alter the person.
import { orThrow } from '../client/core/client.js';
import { businessOperations } from '../client/generated/business-meta.js';
import { v1Operations } from '../client/generated/v1-meta.js';
import { createSandboxClient } from '../client/sandbox/client.js';
import { readBundleFile } from '../sandbox/contract/document.js';

interface TenantCredentials {
  v1Credentials: unknown;
  integrationRegister: string;
}

/** An access token for a tenant's credentials, from the family's own token call, for tests that send raw requests. */
export async function sandboxToken(baseUrl: string, family: 'business' | 'v1', credentials: unknown): Promise<string> {
  const { path } = family === 'business' ? businessOperations.createToken : v1Operations.createClientToken;
  const answer = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (answer.status !== 200)
    throw new Error(`the ${family} token call answered HTTP ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

export async function registerExampleUser(
  baseUrl: string,
  tenant: TenantCredentials,
  changes: Record<string, unknown> = {},
): Promise<string> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const token = await sandboxToken(baseUrl, 'v1', tenant.v1Credentials);
  const { external_user_id: _fixed, ...person } = (readBundleFile('v1') as any).components.examples
    .RegisterNaturalPerson.value;
  const answer = await post(
    v1Operations.registerUser.path,
    { ...person, ...changes },
    { authorization: `Bearer ${token}`, 'x-integration-register': tenant.integrationRegister },
  );
  if (answer.status !== 201)
    throw new Error(`registering the example user answered HTTP ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { user_id: string }).user_id;
}

/** The example user, approved, with an accepted bank account and `amount` COP on their balance: ready to pay out. */
export async function fundedExampleUser(
  baseUrl: string,
  tenant: TenantCredentials & { clientId: string },
  amount: number,
): Promise<{ userId: string; accountId: string }> {
  const control = createSandboxClient({ baseUrl });
  const userId = await registerExampleUser(baseUrl, tenant);
  await orThrow(control.approveUser({ params: { path: { userId } } }));
  const { accountId } = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, userId } }));
  await orThrow(control.acceptBankAccount({ params: { path: { accountId } } }));
  await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount, currency: 'COP' } }));
  return { userId, accountId };
}
