// The sandbox the service's tests run against, started as the guides start one (docs/guides/sandbox-in-tests.md):
// in the test process, with a tenant of the service's own made through the sandbox's control client, and the
// settings the service reads (src/config.ts) set in the environment from that tenant. The service's usage file
// covers src/ only (its tsconfig.json); payout-service is the example whose usage file includes its tests.
import { orThrow } from 'ramp-api';
import { createSandboxClient, type SandboxClient, type sandboxComponents } from 'ramp-api/sandbox';
import { type Sandbox, startSandbox } from 'ramp-api-sandbox';

export interface TreasurySandbox {
  sandbox: Sandbox;
  url: string;
  control: SandboxClient;
  tenant: sandboxComponents['schemas']['Tenant'];
}

export async function startTreasurySandbox(): Promise<TreasurySandbox> {
  const sandbox = await startSandbox({ memory: true });
  try {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Treasury' } }));
    Object.assign(process.env, {
      RAMP_BASE_URL: sandbox.url,
      RAMP_CLIENT_ID: tenant.clientId,
      RAMP_BUSINESS_SECRET: String(tenant.businessCredentials.clientSecret),
      RAMP_V1_SECRET: String(tenant.v1Credentials.clientSecret),
      RAMP_INTEGRATION_ID: tenant.integrationRegister,
    });
    return { sandbox, url: sandbox.url, control, tenant };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
