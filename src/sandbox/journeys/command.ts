// `ramp-api-sandbox journeys`: runs the journeys (Arazzo workflows) with Redocly CLI's `respect`, which checks each
// answer against the descriptions, against a sandbox it starts itself (in memory), the sandbox at `--sandbox URL`,
// or a deployment (`--base-url URL`, its credentials from the environment: the journeys that use only the
// service's own API). `--json FILE` and `--junit FILE` write the results (per workflow and step: status, time,
// failed checks). Exit status 0 every journey passed, 1 a journey failed, 2 a wrong use.

import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readArazzoFiles } from './arazzo-files.js';
import { checkWorkflows, EXIT, journeyResults, summaryLines, UsageError, writeResults } from './command-output.js';
import { baseAddress, deploymentInputs, deploymentServers } from './deployment.js';
import { findRedocly, REDOCLY_VERSION, withoutNodeNotice } from './redocly.js';
import { type HowToRun, type RespectRun, runJourneysOnSandbox, runServiceJourneys } from './respect.js';
import { type Journey, journeys } from './runnable.js';

const JOURNEYS_HELP = `Usage: ramp-api-sandbox journeys [--sandbox URL | --base-url URL [--v1-base-url URL]] [--workflow ID]...
                                [--json FILE] [--junit FILE]

  (none of the three)  every journey, against a sandbox started for the run, in memory (or SANDBOX_URL's)
  --sandbox URL        every journey, against the sandbox at URL
  --base-url URL       the journeys that use only the service's own API, against a deployment: URL is the
                       Business API's base address, and the v1 API's unless --v1-base-url gives another
                       (default BUSINESS_API_URL and V1_API_URL; --target deployment takes those)
  --workflow ID        only this journey (repeatable)
  --json FILE          write the results as JSON
  --junit FILE         write the results as JUnit XML, a test suite per journey and a test case per step
  --target T           sandbox (the default) or deployment

A deployment's run reads BUSINESS_API_CREDENTIALS and V1_API_CREDENTIALS (the JSON bodies of the token calls),
CONTRACT_PARAMS ({"clientId":"...","x-integration-register":"..."}), JOURNEYS_RECEIVER_URL (where the journeys'
webhook endpoints point) and CONTRACT_ALLOW_WRITES=1 (the journeys create users, wallets and endpoints).
The journeys are the Arazzo files in ramp-api's dist/workflows/, beside the descriptions they name; they need
Redocly CLI (npm i -D @redocly/cli@${REDOCLY_VERSION}).
Exit status: 0 every journey passed, 1 a journey failed, 2 a wrong use (one line says what).
`;

export interface JourneysOptions {
  /** Where the Arazzo files are (default: those ramp-api ships, beside its bundles). */
  workflowsDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Called before a sandbox is started for the run (the repository makes its bundles current). */
  beforeSandbox?: () => void;
}

interface Values {
  target?: string;
  sandbox?: string;
  'base-url'?: string;
  'v1-base-url'?: string;
  workflow?: string[];
  json?: string;
  junit?: string;
  help?: boolean;
}

function values(args: string[]): Values {
  try {
    return parseArgs({
      args,
      options: {
        target: { type: 'string' },
        sandbox: { type: 'string' },
        'base-url': { type: 'string' },
        'v1-base-url': { type: 'string' },
        workflow: { type: 'string', multiple: true },
        json: { type: 'string' },
        junit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (npx ramp-api-sandbox journeys --help)`);
  }
}

/** Where the run goes: a deployment when `--base-url` or `--target deployment` says so, else a sandbox. */
function targetOf(v: Values): 'sandbox' | 'deployment' {
  if (v.target !== undefined && v.target !== 'sandbox' && v.target !== 'deployment')
    throw new UsageError(`--target is sandbox or deployment, not ${v.target}.`);
  const deployment = v.target === 'deployment' || v['base-url'] !== undefined || v['v1-base-url'] !== undefined;
  if (deployment && v.target === 'sandbox')
    throw new UsageError('--base-url names a deployment: drop --target sandbox.');
  if (deployment && v.sandbox !== undefined)
    throw new UsageError('--sandbox and --base-url contradict each other: give one.');
  return deployment ? 'deployment' : 'sandbox';
}

/**
 * The Arazzo files ramp-api ships: `dist/workflows/` of the ramp-api this package resolves, beside its bundles so
 * the same relative addresses reach them (the build writes them there: scripts/build/build-workflows.ts).
 */
export function shippedWorkflowsDir(from: string = import.meta.url): string {
  return join(dirname(createRequire(from).resolve('ramp-api/package.json')), 'dist', 'workflows');
}

async function onSandbox(given: string | undefined, all: Journey[], how: HowToRun, options: JourneysOptions) {
  if (given) return runJourneysOnSandbox(given, all, how);
  options.beforeSandbox?.();
  // Loaded only here: a wrong use of the command is told at once, not after the sandbox's modules load.
  const { startSandbox } = await import('../server.js');
  const sandbox = await startSandbox({ memory: true });
  try {
    return await runJourneysOnSandbox(sandbox.url, all, how);
  } finally {
    await sandbox.close();
  }
}

/** Runs the command with `args`; resolves to its exit status. A wrong use is one line on standard error. */
export async function journeysCommand(args: string[], options: JourneysOptions = {}): Promise<number> {
  try {
    return await run(args, options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return EXIT.usage;
  }
}

/** What a run needs before it starts: the journeys to run, how, and where (a deployment's settings, if one). */
function plan(v: Values, env: NodeJS.ProcessEnv, options: JourneysOptions) {
  const target = targetOf(v);
  const dir = options.workflowsDir ?? shippedWorkflowsDir();
  const all = journeys(readArazzoFiles(dir)).filter((j) => target === 'sandbox' || j.kind === 'service');
  checkWorkflows(
    v.workflow,
    all.map((j) => j.workflow.workflowId),
  );
  const only = v.workflow?.length ? (j: Journey) => v.workflow!.includes(j.workflow.workflowId) : () => true;
  const deployment =
    target === 'deployment'
      ? {
          servers: deploymentServers(env, { baseUrl: v['base-url'], v1BaseUrl: v['v1-base-url'] }),
          inputs: deploymentInputs(env),
        }
      : undefined;
  const given = v.sandbox ?? (env.SANDBOX_URL || undefined);
  const sandbox = given && baseAddress(given, v.sandbox === undefined ? 'SANDBOX_URL' : '--sandbox');
  return { target, all, deployment, sandbox, how: { cli: findRedocly(dir), only } };
}

async function run(args: string[], options: JourneysOptions): Promise<number> {
  const v = values(args);
  if (v.help) {
    process.stdout.write(JOURNEYS_HELP);
    return EXIT.passed;
  }
  const { target, all, deployment, sandbox, how } = plan(v, options.env ?? process.env, options);
  const startedAt = new Date();
  const started = performance.now();
  const runs: RespectRun[] = deployment
    ? await runServiceJourneys(deployment.servers, deployment.inputs, all, how)
    : await onSandbox(sandbox, all, how, options);
  const results = journeyResults(runs, target, startedAt, performance.now() - started);
  for (const r of runs) if (!r.ok) process.stdout.write(withoutNodeNotice(r.output));
  for (const line of summaryLines(results)) console.log(line);
  writeResults(results, { json: v.json && resolve(v.json), junit: v.junit && resolve(v.junit) });
  return results.ok && runs.every((r) => r.ok) ? EXIT.passed : EXIT.failed;
}
