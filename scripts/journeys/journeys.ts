// `npm run journeys`: runs the journeys (openapi/workflows/*.arazzo.yaml) with `redocly respect`, which checks each
// answer against the descriptions. `--target sandbox` (default): every journey against SANDBOX_URL, or a sandbox
// started in memory (fresh tenants: one for the journeys that leave sandbox time alone, with a deployment's
// inputs, one for each file that moves it). `--target deployment`: the journeys that use only the service's own
// API, unchanged, against the deployment the contract suite takes (docs/guides/real-deployment.md). `--json FILE` and `--junit FILE` write the results
// (per workflow and step: status, time, failed checks); exit 0 all passed, 1 a journey failed, 2 a wrong use.
import { parseArgs } from 'node:util';
import { freshRunId } from '../../src/console/fresh.js';
import { bundleAll } from '../openapi/bundle.js';
import { envPrefix, parameterOverrides, writesAllowed } from '../openapi/targets.js';
import { checkWorkflows, EXIT, journeyResults, summaryLines, UsageError, writeResults } from './outcome.js';
import { journeys, type RespectRun, runJourneysOnSandbox, runServiceJourneys } from './respect.js';

function options() {
  try {
    return parseArgs({
      options: {
        target: { type: 'string', default: 'sandbox' },
        workflow: { type: 'string', multiple: true },
        json: { type: 'string' },
        junit: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`--target deployment needs ${name} (see docs/guides/real-deployment.md).`);
  return value;
}

function json(name: string): unknown {
  try {
    return JSON.parse(required(name));
  } catch (cause) {
    if (cause instanceof UsageError) throw cause;
    throw new UsageError(`${name} must be the JSON body of the token call, such as {"...":"..."}`);
  }
}

/** The service-only journeys against the deployment in BUSINESS_API_URL and V1_API_URL. */
async function onDeployment(only: (id: string) => boolean): Promise<RespectRun[]> {
  if (!writesAllowed())
    throw new UsageError(
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

async function onSandbox(only: (id: string) => boolean): Promise<RespectRun[]> {
  const given = process.env.SANDBOX_URL;
  if (given) return runJourneysOnSandbox(given, { only: (j) => only(j.workflow.workflowId) });
  bundleAll();
  // Loaded only here: a wrong use of the command is told at once, not after the sandbox's modules load.
  const { startSandbox } = await import('../../src/sandbox/server.js');
  const sandbox = await startSandbox({ memory: true });
  try {
    return await runJourneysOnSandbox(sandbox.url, { only: (j) => only(j.workflow.workflowId) });
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<number> {
  const values = options();
  const target = values.target;
  if (target !== 'sandbox' && target !== 'deployment')
    throw new UsageError(`--target is sandbox or deployment, not ${target}`);
  const known = journeys()
    .filter((j) => target === 'sandbox' || j.kind === 'service')
    .map((j) => j.workflow.workflowId);
  checkWorkflows(values.workflow, known);
  const only = values.workflow?.length ? (id: string) => values.workflow!.includes(id) : () => true;
  const startedAt = new Date();
  const started = performance.now();
  const runs = target === 'deployment' ? await onDeployment(only) : await onSandbox(only);
  const results = journeyResults(runs, target, startedAt, performance.now() - started);
  for (const run of runs) if (!run.ok) process.stdout.write(run.output);
  for (const line of summaryLines(results)) console.log(line);
  writeResults(results, values);
  return results.ok && runs.every((r) => r.ok) ? EXIT.passed : EXIT.failed;
}

try {
  process.exit(await main());
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(EXIT.usage);
}
