// The sandbox the service's tests run against, started as the guides start one (docs/guides/sandbox-in-tests.md):
// in the test process, with a tenant of the service's own made through the sandbox's control client, a token of
// each family exchanged for the tenant's credentials, and the settings the service reads (src/clients.ts) set in
// the environment. The tsconfig.json includes these tests, so the usage file holds this use of the control API
// and of the token calls, which the gate then compares like the rest.
import { createBusinessClient, createV1Client, orThrow } from 'ramp-api';
import { createSandboxClient, type SandboxClient, type sandboxComponents } from 'ramp-api/sandbox';
import { type Sandbox, startSandbox } from 'ramp-api-sandbox';

export interface PayoutSandbox {
  sandbox: Sandbox;
  control: SandboxClient;
  tenant: sandboxComponents['schemas']['Tenant'];
}

/** The token the token call answers with (`access_token`, which the description leaves open). */
const accessToken = (answer: Record<string, unknown>) => String(answer.access_token);

export async function startPayoutSandbox(): Promise<PayoutSandbox> {
  const sandbox = await startSandbox({ memory: true });
  try {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Payout service' } }));
    const v1 = createV1Client({ baseUrl: sandbox.url });
    const business = createBusinessClient({ baseUrl: sandbox.url });
    Object.assign(process.env, {
      RAMP_BASE_URL: sandbox.url,
      RAMP_V1_TOKEN: accessToken(await orThrow(v1.createClientToken({ body: tenant.v1Credentials }))),
      RAMP_BUSINESS_TOKEN: accessToken(await orThrow(business.createToken({ body: tenant.businessCredentials }))),
    });
    return { sandbox, control, tenant };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
