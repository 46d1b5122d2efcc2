// The sandbox Specmatic tests in `npm run interop`: a tenant with every record the tests name, and a Specmatic
// dictionary of them per bundle.
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { readBundleFile } from '../../src/sandbox/contract/document.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { registerExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';

/** A sandbox with a tenant and every record the tests name, and a Specmatic dictionary of them per bundle. */
export async function sandboxFixture(): Promise<{
  sandbox: Sandbox;
  token: (api: string) => Promise<string>;
  dictionary: (api: string) => unknown;
}> {
  const sandbox = await startSandbox({ memory: true });
  const control = createSandboxClient({ baseUrl: sandbox.url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Specmatic' } }));
  const clientId = tenant.clientId;
  const userId = await registerExampleUser(sandbox.url, tenant);
  await orThrow(control.approveUser({ params: { path: { userId } } }));
  const token = (api: string) =>
    sandboxToken(
      sandbox.url,
      api === 'business' ? 'business' : 'v1',
      api === 'business' ? tenant.businessCredentials : tenant.v1Credentials,
    );
  const openWallet = async () => {
    const answer = await fetch(`${sandbox.url}/api/b2b2b/${clientId}/wallet/custody/${userId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await token('business')}` },
      body: JSON.stringify({ token: 'USDC' }),
    });
    return ((await answer.json()) as { id: string }).id;
  };
  const [walletId, otherWalletId] = [await openWallet(), await openWallet()];
  await orThrow(control.fundWallet({ params: { path: { walletId } }, body: { amount: 1e12 } }));
  const account = await orThrow(control.createBankAccount({ body: { clientId, userId } }));
  await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
  await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e15, currency: 'COP' } }));
  const hook = await orThrow(
    control.createBusinessWebhook({ body: { clientId, url: 'https://hooks.example/ramp', process: 'ramp' } }),
  );
  const external = await orThrow(control.createExternalWallet({ body: { userId } }));
  // The on-ramp examples name their destination wallet: those IDs become the user's wallets too.
  const v1 = readBundleFile('v1') as any;
  const onRampExamples = Object.values(
    v1.paths['/api/v1/admin/fiats/{user_id}/onramp'].post.requestBody.content['application/json'].examples ?? {},
  ) as any[];
  const exampleWallets = new Set<string>(
    onRampExamples
      .map(
        (e) =>
          (e.value ?? v1.components.examples[String(e.$ref).split('/').pop()!]?.value)?.destination?.externalWalletId,
      )
      .filter(Boolean),
  );
  for (const externalWalletId of exampleWallets)
    await orThrow(control.createExternalWallet({ body: { userId, externalWalletId } }));
  // Specmatic's dictionary: values by schema name, and parameters by where they go.
  const dictionary = (api: string) =>
    api === 'business'
      ? {
          TokenRequest: tenant.businessCredentials,
          CreateCustodyWalletRequest: { token: 'USDC' },
          CreateWalletTransferRequest: { walletOriginId: walletId, walletDestinationId: otherWalletId, amount: 1 },
          PARAMETERS: {
            PATH: { clientId, userId, walletId, webhook_id: hook.id },
            QUERY: { userId, originWallet: walletId },
          },
        }
      : {
          ClientTokenRequest: tenant.v1Credentials,
          // A receiver where the sandbox delivers (loopback: its default endpoint networks); the port answers nothing.
          CreateIntegrationEndpointRequest: { url: 'http://127.0.0.1:9/ramp/events' },
          CreatePayoutRequest: { currency: 'COP', destinationId: account.accountId },
          CreateOnRampRequest: { symbolOrigin: 'COP', symbolDestination: 'USDC', bankCode: '1007' },
          OnRampDestination: { type: 'EXTERNAL', externalWalletId: external.externalWalletId },
          PARAMETERS: { PATH: { user_id: userId }, HEADER: { 'x-integration-register': tenant.integrationRegister } },
        };
  return { sandbox, token, dictionary };
}
