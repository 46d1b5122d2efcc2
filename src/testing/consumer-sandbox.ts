// Test support for the example consumers' own tests (contract-tests/consumers/<name>/test/): a sandbox in the test
// process, as docs/guides/sandbox-in-tests.md starts one, with a tenant of the consumer's own, its tokens (for the
// consumers configured with a fixed token) and the environment the consumers read their settings from.
import { createBusinessClient, createV1Client, orThrow } from '../client/index.js';
import { createSandboxClient, type SandboxClient, type sandboxComponents } from '../client/sandbox/index.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';

export type Tenant = sandboxComponents['schemas']['Tenant'];

export interface ConsumerSandbox {
  sandbox: Sandbox;
  url: string;
  control: SandboxClient;
  tenant: Tenant;
}

/** A token of the tenant's for one family, as the token call answers it. */
export async function tenantToken(url: string, tenant: Tenant, family: 'v1' | 'business'): Promise<string> {
  const answer =
    family === 'v1'
      ? await orThrow(createV1Client({ baseUrl: url }).createClientToken({ body: tenant.v1Credentials }))
      : await orThrow(createBusinessClient({ baseUrl: url }).createToken({ body: tenant.businessCredentials }));
  return String((answer as { access_token?: unknown }).access_token);
}

/**
 * A sandbox with a tenant named `name`, and RAMP_BASE_URL, RAMP_CLIENT_ID, the secrets, RAMP_INTEGRATION_ID and
 * both tokens (RAMP_V1_TOKEN, RAMP_BUSINESS_TOKEN) set for the consumer's modules, which a test imports after.
 */
export async function startConsumerSandbox(name: string): Promise<ConsumerSandbox> {
  const sandbox = await startSandbox({ memory: true });
  try {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name } }));
    Object.assign(process.env, {
      RAMP_BASE_URL: sandbox.url,
      RAMP_CLIENT_ID: tenant.clientId,
      RAMP_BUSINESS_SECRET: String(tenant.businessCredentials.clientSecret),
      RAMP_V1_SECRET: String(tenant.v1Credentials.clientSecret),
      RAMP_INTEGRATION_ID: tenant.integrationRegister,
      RAMP_V1_TOKEN: await tenantToken(sandbox.url, tenant, 'v1'),
      RAMP_BUSINESS_TOKEN: await tenantToken(sandbox.url, tenant, 'business'),
    });
    return { sandbox, url: sandbox.url, control, tenant };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
