// A sandbox tenant made in one click (the control API's createTenant), kept in this tab's sessionStorage only:
// the references of both families share it while the tab lives, and nothing else ever sees its credentials.
import { createSandboxClient } from 'ramp-api';

export interface Tenant {
  clientId: string;
  name: string;
  businessCredentials: unknown;
  v1Credentials: unknown;
  integrationRegister: string;
}

const storageKey = (sandbox: string) => `ramp-console-tenant ${sandbox}`;

export function readTenant(sandbox: string | undefined): Tenant | undefined {
  if (!sandbox) return undefined;
  const text = sessionStorage.getItem(storageKey(sandbox));
  return text ? (JSON.parse(text) as Tenant) : undefined;
}

export async function makeTenant(sandbox: string): Promise<Tenant> {
  const control = createSandboxClient({ baseUrl: sandbox, retry: false });
  const name = `Console ${new Date().toISOString().slice(11, 19)}`;
  let result: Awaited<ReturnType<typeof control.createTenant>>;
  try {
    result = await control.createTenant({ body: { name } });
  } catch {
    throw new Error(`The sandbox at ${sandbox} does not answer: is npm start still running?`);
  }
  if (!result.data) throw new Error(`createTenant answered ${result.response.status}.`);
  const tenant = result.data as Tenant;
  sessionStorage.setItem(storageKey(sandbox), JSON.stringify(tenant));
  return tenant;
}
