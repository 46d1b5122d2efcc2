// Test and bench support: registers the v1 description's example person as a user of a sandbox tenant, over
// the v1 API itself (so it is a real record), and returns the user's ID (`changes` alter the person); the tokens
// and parameter values a raw request to any operation needs.
import { randomUUID } from 'node:crypto';
import { orThrow } from '../client/core/client.js';
import { businessOperations } from '../client/generated/business-meta.js';
import { v1Operations } from '../client/generated/v1-meta.js';
import type { OperationEntry } from '../client/lookup/index.js';
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

/** The v1 description's example person, without the fixed external user ID (one per tenant), as a registerUser body. */
export function examplePerson(): Record<string, unknown> {
  const { external_user_id: _fixed, ...person } = (readBundleFile('v1') as any).components.examples
    .RegisterNaturalPerson.value;
  return person;
}

export async function registerExampleUser(
  baseUrl: string,
  tenant: TenantCredentials,
  changes: Record<string, unknown> = {},
  /** A v1 access token of the tenant to reuse (many registrations); a new one is asked for otherwise. */
  token?: string,
): Promise<string> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  token ??= await sandboxToken(baseUrl, 'v1', tenant.v1Credentials);
  const answer = await post(
    v1Operations.registerUser.path,
    { ...examplePerson(), ...changes },
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

export interface RequestValues {
  tokens: Record<'business' | 'v1', string>;
  records: Record<string, string>;
}

/**
 * A new tenant named `name` with the example user (approved when `approve` is set), for tests that send raw
 * requests to every operation: a token of each family, and the values the operations' path and header parameters
 * name (`clientId`, `userId` and `user_id`, `x-integration-register`).
 */
export async function exampleRequestValues(
  baseUrl: string,
  name: string,
  { approve = false } = {},
): Promise<RequestValues> {
  const control = createSandboxClient({ baseUrl });
  const tenant = await orThrow(control.createTenant({ body: { name } }));
  const userId = await registerExampleUser(baseUrl, tenant);
  if (approve) await orThrow(control.approveUser({ params: { path: { userId } } }));
  const tokens = {
    business: await sandboxToken(baseUrl, 'business', tenant.businessCredentials),
    v1: await sandboxToken(baseUrl, 'v1', tenant.v1Credentials),
  };
  const records = {
    clientId: tenant.clientId,
    userId,
    user_id: userId,
    'x-integration-register': tenant.integrationRegister,
  };
  return { tokens, records };
}

/**
 * The path and headers of a raw request to `entry` of `family`: each path parameter from `path`, else from the
 * records, else a random UUID; the header parameters the records name; the family's token where the operation is
 * secured.
 */
export function operationTarget(
  { tokens, records }: RequestValues,
  family: string,
  entry: OperationEntry,
  path: Record<string, string> = {},
): { path: string; headers: Record<string, string> } {
  const filled = entry.path.replace(/\{([^}]+)\}/g, (_, key: string) =>
    encodeURIComponent(path[key] ?? records[key] ?? randomUUID()),
  );
  const headers: Record<string, string> = {};
  for (const p of entry.parameters) if (p.in === 'header' && records[p.name]) headers[p.name] = records[p.name]!;
  if (family !== 'sandbox' && entry.operation.security?.length !== 0)
    headers.authorization = `Bearer ${tokens[family as 'business' | 'v1']}`;
  return { path: filled, headers };
}
