// The contract suite against a fresh sandbox on one store, as against a real deployment, writes included:
// starts the sandbox in this process, sets up through the control API the state the suite's requests need (their
// example IDs become real records), runs the suite (contract-tests/contract.test.ts) in its own vitest process
// with the sandbox as BUSINESS_API_URL and V1_API_URL, and reads the coverage report it writes. Used by `npm run
// contract:sandbox` and by contract-tests/sandbox.test.ts (so `npm test` runs it on both stores).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../scripts/openapi/apis.js';
import { orThrow } from '../src/client/index.js';
import { createSandboxClient } from '../src/client/sandbox/client.js';
import { readBundleFile } from '../src/sandbox/contract/document.js';
import type { SandboxLogger } from '../src/sandbox/core/logger.js';
import { type SandboxOptions, startSandbox } from '../src/sandbox/server.js';
import { registerExampleUser, sandboxToken } from '../src/testing/sandbox-users.js';
import type { CoverageRow } from './coverage.js';

export interface SandboxRunOptions {
  store: SandboxOptions;
  /** Where the suite writes its coverage report. */
  reportDir: string;
  /** Admin URL of a running PostgreSQL cluster, which the suite's own setup then reuses (none is started). */
  postgresUrl?: string | undefined;
  /** More arguments for vitest. */
  args?: string[];
  /** Keep the suite's output (returned) instead of passing it through to this process's own. */
  capture?: boolean;
  /** Where the sandbox reports the faults the suite provokes (the 503 recipes' outages); default standard error. */
  logger?: SandboxLogger;
}

export interface SandboxRunResult {
  /** The suite's exit status (1 too when the sandbox gave answers that break the description). */
  code: number;
  /** What the suite printed, when captured. */
  output: string;
  /** Answers of the sandbox that broke the description. */
  violations: string[];
  /** The coverage report the suite wrote, if it wrote one. */
  coverage?: { cells: number; covered: number; rows: CoverageRow[] };
}

/** Runs the suite against a fresh sandbox on `store`; the bundles and the sandbox must be built. */
export async function runContractOnSandbox({
  store,
  reportDir,
  postgresUrl,
  args = [],
  capture = false,
  logger,
}: SandboxRunOptions): Promise<SandboxRunResult> {
  const sandbox = await startSandbox({ ...store, ...(logger ? { logger } : {}) });
  let code = 1;
  let output = '';
  let violations: string[] = [];
  try {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const v1 = readBundleFile('v1') as any;
    const tenant = await orThrow(control.createTenant({ body: { name: 'Contract suite' } }));
    const clientId = tenant.clientId;
    // A registered, approved user (registered over the v1 API itself, so it is a real record).
    const userId = await registerExampleUser(sandbox.url, tenant);
    await orThrow(control.approveUser({ params: { path: { userId } } }));
    // A second registered user, left pending: the recipes' user that is not approved.
    const exampleDocument = String(v1.components.examples.RegisterNaturalPerson.value.document_number ?? '');
    const pendingUserId = await registerExampleUser(sandbox.url, tenant, { document_number: `${exampleDocument}9` });
    const wallet = await fetch(`${sandbox.url}/api/b2b2b/${clientId}/wallet/custody/${userId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await businessToken()}` },
      body: JSON.stringify({ token: 'USDC' }),
    });
    const walletId = ((await wallet.json()) as { id: string }).id;
    await orThrow(control.fundWallet({ params: { path: { walletId } }, body: { amount: 1000 } }));
    const account = await orThrow(control.createBankAccount({ body: { clientId, userId } }));
    await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
    await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 100_000_000, currency: 'COP' } }));
    const hook = await orThrow(
      control.createBusinessWebhook({ body: { clientId, url: 'https://hooks.example/ramp', process: 'ramp' } }),
    );
    // The on-ramp examples name their destination wallet: register those IDs for the user.
    const onRampExamples = Object.values(
      v1.paths['/api/v1/admin/fiats/{user_id}/onramp'].post.requestBody.content['application/json'].examples ?? {},
    ) as any[];
    const walletIds = new Set(
      onRampExamples
        .map((e) => (e.value ?? v1.components.examples[e.$ref?.split('/').pop()]?.value)?.destination?.externalWalletId)
        .filter(Boolean),
    );
    for (const externalWalletId of walletIds)
      await orThrow(control.createExternalWallet({ body: { userId, externalWalletId } }));

    const params = {
      clientId,
      userId,
      user_id: userId,
      walletId,
      webhook_id: hook.id,
      'x-integration-register': tenant.integrationRegister,
      destinationId: account.accountId,
      pendingUserId,
    };
    // Asynchronous: the sandbox answers from this very process while the suite runs.
    const suite = spawn(
      join(repoRoot, 'node_modules', '.bin', 'vitest'),
      ['run', 'contract-tests/contract.test.ts', ...args],
      {
        cwd: repoRoot,
        stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: {
          ...process.env,
          BUSINESS_API_URL: sandbox.url,
          V1_API_URL: sandbox.url,
          BUSINESS_API_CREDENTIALS: JSON.stringify(tenant.businessCredentials),
          V1_API_CREDENTIALS: JSON.stringify(tenant.v1Credentials),
          CONTRACT_PARAMS: JSON.stringify(params),
          CONTRACT_ALLOW_WRITES: '1',
          SANDBOX_CONTROL_URL: sandbox.url,
          CONTRACT_REPORT_DIR: reportDir,
          // What the suite reads is built already: its setup builds nothing.
          CONTRACT_SKIP_BUNDLE: '1',
          ...(capture ? { NO_COLOR: '1', FORCE_COLOR: '0' } : {}),
          // On PostgreSQL the 503 recipes make this database refuse connections for one call, as the cluster's
          // admin (sandbox-recipes.ts).
          ...(postgresUrl ? { RAMP_TEST_POSTGRES_URL: postgresUrl } : {}),
          ...(store.databaseUrl ? { SANDBOX_DATABASE_URL: store.databaseUrl } : {}),
        },
      },
    );
    suite.stdout?.on('data', (chunk: Buffer) => (output += String(chunk)));
    suite.stderr?.on('data', (chunk: Buffer) => (output += String(chunk)));
    // 'close': everything it printed has arrived.
    code = await new Promise<number>((resolve) => suite.once('close', (status) => resolve(status ?? 1)));
    violations = [...sandbox.violations];
    if (violations.length) code = 1;

    function businessToken(): Promise<string> {
      return sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    }
  } finally {
    await sandbox.close();
  }
  let coverage: SandboxRunResult['coverage'];
  try {
    coverage = JSON.parse(
      readFileSync(join(reportDir, 'contract-coverage.json'), 'utf8'),
    ) as SandboxRunResult['coverage'];
  } catch {
    coverage = undefined;
  }
  return { code, output, violations, coverage };
}
