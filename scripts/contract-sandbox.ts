// `npm run contract:sandbox`: starts a fresh sandbox on each store (PGlite in memory, then PostgreSQL in a
// throwaway cluster when Debian's `postgresql` is installed; under CI a missing PostgreSQL is a failure), sets
// up through the control API the state the contract suite's requests need (their example IDs become real
// records), runs the suite against it as against a real deployment, writes included, and prints the coverage
// per store.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { orThrow } from '../src/client/index.js';
import { readBundleFile } from '../src/sandbox/openapi/document.js';
import { createSandboxClient } from '../src/client/sandbox/client.js';
import { registerExampleUser, sandboxToken } from '../src/testing/sandbox-users.js';
import { startSandbox, type SandboxOptions } from '../src/sandbox/server.js';
import { createDatabase, postgresUnavailable, startPostgres, type PostgresCluster } from '../src/testing/postgres.js';
import { repoRoot } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';

/** Runs the suite against a fresh sandbox on `store`; its exit status. The report goes to `reportDir`. */
async function runOn(store: SandboxOptions, reportDir: string, postgresUrl: string | undefined): Promise<number> {
  const sandbox = await startSandbox(store);
  let code = 1;
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
    const hook = await orThrow(control.createBusinessWebhook({ body: { clientId, url: 'https://hooks.example/ramp', process: 'ramp' } }));
    // The on-ramp examples name their destination wallet: register those IDs for the user.
    const onRampExamples = Object.values(v1.paths['/api/v1/admin/fiats/{user_id}/onramp'].post.requestBody.content['application/json'].examples ?? {}) as any[];
    const walletIds = new Set(onRampExamples.map((e) => (e.value ?? v1.components.examples[e.$ref?.split('/').pop()]?.value)?.destination?.externalWalletId).filter(Boolean));
    for (const externalWalletId of walletIds) await orThrow(control.createExternalWallet({ body: { userId, externalWalletId } }));

    const params = { clientId, userId, user_id: userId, walletId, webhook_id: hook.id, 'x-integration-register': tenant.integrationRegister, destinationId: account.accountId, pendingUserId };
    // Asynchronous: the sandbox answers from this very process while the suite runs.
    const suite = spawn(join(repoRoot, 'node_modules', '.bin', 'vitest'), ['run', 'contract-tests/contract.test.ts', ...process.argv.slice(2)], {
      cwd: repoRoot,
      stdio: 'inherit',
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
        // The suite's vitest setup reuses this run's cluster rather than starting one it does not need.
        ...(postgresUrl ? { RAMP_TEST_POSTGRES_URL: postgresUrl } : {}),
        // On PostgreSQL the 503 recipes make this database refuse connections for one call (sandbox-recipes.ts).
        ...(store.databaseUrl ? { SANDBOX_DATABASE_URL: store.databaseUrl } : {}),
      },
    });
    code = await new Promise<number>((resolve) => suite.once('exit', (status) => resolve(status ?? 1)));
    if (sandbox.violations.length) {
      console.error(`The sandbox gave ${sandbox.violations.length} answers that break the description:\n${sandbox.violations.join('\n')}`);
      code = 1;
    }

    function businessToken(): Promise<string> {
      return sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    }
  } finally {
    await sandbox.close();
  }
  return code;
  }

  bundleAll();
  // A signal ends the process through exit, so the cluster's exit hook stops it (pg_ctl puts it out of reach).
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  const why = postgresUnavailable();
  if (why && process.env.CI) {
    console.error(`contract:sandbox runs on PostgreSQL too under CI, but ${why}.`);
    process.exit(1);
  }
  // Started once, before both runs: the suite's own vitest setup reuses it (RAMP_TEST_POSTGRES_URL) instead
  // of starting another, on the PGlite run too.
  const cluster: PostgresCluster | undefined = why ? undefined : await startPostgres();
  const results: { store: string; code: number; report: string }[] = [];
  try {
    for (const store of cluster ? (['PGlite', 'PostgreSQL'] as const) : (['PGlite'] as const)) {
      console.log(`\n=== Contract suite against the sandbox on ${store} ===\n`);
      const report = join(repoRoot, 'reports', 'sandbox', store.toLowerCase());
      const options: SandboxOptions = store === 'PostgreSQL' ? { databaseUrl: await createDatabase(cluster!.url, 'contract') } : { memory: true };
      results.push({ store, code: await runOn(options, report, cluster?.url), report });
    }
  } finally {
    cluster?.stop();
  }
  console.log('\nContract suite against the sandbox, per store:');
  for (const { store, code, report } of results) {
    let cells = 'no coverage report';
    try {
      const { covered, cells: documented } = JSON.parse(readFileSync(join(report, 'contract-coverage.json'), 'utf8')) as { covered: number; cells: number };
      cells = `${covered} of ${documented} documented cells exercised`;
    } catch {}
    console.log(`  ${store.padEnd(10)} ${code === 0 ? 'passed' : 'FAILED'}: ${cells} (${join('reports', 'sandbox', store.toLowerCase(), 'contract-coverage.md')})`);
  }
  if (why) console.log(`  PostgreSQL skipped: ${why}.`);
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
