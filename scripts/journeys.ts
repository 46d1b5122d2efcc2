// `npm run journeys`: runs the journeys (openapi/workflows/*.arazzo.yaml) with `redocly respect`, which checks each
// answer against the descriptions. `--target sandbox` (default): every journey against SANDBOX_URL, or a sandbox
// started in memory (fresh tenants: one for the files that leave sandbox time alone, one for each file that moves
// it). `--target deployment`: the journeys that use only the service's own API, unchanged, against the deployment
// the contract suite takes (docs/guides/real-deployment.md).
import { parseArgs } from 'node:util';
import { envPrefix, parameterOverrides, writesAllowed } from '../contract-tests/targets.js';
import { freshRunId } from '../src/console/fresh.js';
import { startSandbox } from '../src/sandbox/server.js';
import { bundleAll } from './lib/bundle.js';
import { type RespectRun, runJourneysOnSandbox, runServiceJourneys } from './lib/journeys.js';

const { values } = parseArgs({
  options: { target: { type: 'string', default: 'sandbox' }, workflow: { type: 'string', multiple: true } },
});
const only = values.workflow?.length ? (id: string) => values.workflow!.includes(id) : () => true;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`--target deployment needs ${name} (see docs/guides/real-deployment.md).`);
  return value;
}

function json(name: string): unknown {
  try {
    return JSON.parse(required(name));
  } catch (cause) {
    throw new Error(`${name} must be the JSON body of the token call, such as {"...":"..."}`, { cause });
  }
}

/** The service-only journeys against the deployment in BUSINESS_API_URL and V1_API_URL. */
async function onDeployment(): Promise<RespectRun[]> {
  if (!writesAllowed())
    throw new Error(
      'The journeys create records (users, wallets, endpoints): set CONTRACT_ALLOW_WRITES=1 to run them.',
    );
  const params = parameterOverrides();
  const inputs = {
    clientId: String(params.clientId ?? required('CONTRACT_PARAMS (its clientId)')),
    integrationRegister: String(
      params['x-integration-register'] ?? required('CONTRACT_PARAMS (x-integration-register)'),
    ),
    businessCredentials: json(`${envPrefix('business')}CREDENTIALS`),
    v1Credentials: json(`${envPrefix('v1')}CREDENTIALS`),
    receiverUrl: required('JOURNEYS_RECEIVER_URL'),
    runId: freshRunId(),
  };
  const servers = { business: required('BUSINESS_API_URL'), v1: required('V1_API_URL') };
  return runServiceJourneys(servers, inputs, (j) => only(j.workflow.workflowId));
}

async function onSandbox(): Promise<RespectRun[]> {
  const given = process.env.SANDBOX_URL;
  if (given) return runJourneysOnSandbox(given, { only: (j) => only(j.workflow.workflowId) });
  bundleAll();
  const sandbox = await startSandbox({ memory: true });
  try {
    return await runJourneysOnSandbox(sandbox.url, { only: (j) => only(j.workflow.workflowId) });
  } finally {
    await sandbox.close();
  }
}

if (values.target !== 'sandbox' && values.target !== 'deployment')
  throw new Error(`--target is sandbox or deployment, not ${values.target}`);
const runs = values.target === 'deployment' ? await onDeployment() : await onSandbox();
for (const run of runs) {
  if (!run.ok) process.stdout.write(run.output);
  const time = run.together > 1 ? `${run.ms} ms for ${run.together} files in one respect run` : `${run.ms} ms`;
  console.log(`${run.ok ? 'passed' : 'FAILED'}  ${run.file} (${run.workflows.join(', ')}), ${time}`);
}
process.exit(runs.length && runs.every((r) => r.ok) ? 0 : 1);
