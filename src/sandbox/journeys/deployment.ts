// A deployment's settings for the journeys, from the environment the contract suite also reads
// (docs/guides/real-deployment.md): each family's base address and credentials, the tenant's parameters, the
// consent to create records, and where the journeys' webhook endpoints point.
import { UsageError } from './command-output.js';
import type { Servers, TenantInputs } from './respect.js';
import { freshRunId } from './run-id.js';

/** The environment variables' prefix for a family: BUSINESS_API_URL, V1_API_CREDENTIALS, ... */
export const envPrefix = (family: string) => `${family.toUpperCase()}_API_`;

const GUIDE = 'npx ramp-api-sandbox journeys --help lists the settings';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new UsageError(`A deployment's run needs ${name} (${GUIDE}).`);
  return value;
}

/** `name`'s value as JSON, or a UsageError that names it and what it should hold (never its value). */
function json(env: NodeJS.ProcessEnv, name: string, what: string): unknown {
  const raw = required(env, name);
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`${name} must be ${what} (${GUIDE}).`);
  }
}

/** The address given for a family, as a URL, or a UsageError naming where it came from. */
export function baseAddress(value: string, from: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new UsageError(`${from} must be an http or https URL.`);
  return value.replace(/\/+$/, '');
}

/**
 * The deployment's base addresses: `--base-url` (the Business API's, and the v1 API's unless `--v1-base-url`
 * gives another), else BUSINESS_API_URL and V1_API_URL.
 */
export function deploymentServers(env: NodeJS.ProcessEnv, given: { baseUrl?: string; v1BaseUrl?: string }): Servers {
  const business = given.baseUrl
    ? baseAddress(given.baseUrl, '--base-url')
    : baseAddress(required(env, `${envPrefix('business')}URL`), `${envPrefix('business')}URL`);
  const v1 = given.v1BaseUrl
    ? baseAddress(given.v1BaseUrl, '--v1-base-url')
    : given.baseUrl
      ? business
      : baseAddress(required(env, `${envPrefix('v1')}URL`), `${envPrefix('v1')}URL`);
  return { business, v1 };
}

/** Whether the environment allows creating records on the deployment (CONTRACT_ALLOW_WRITES=1). */
export const writesAllowed = (env: NodeJS.ProcessEnv = process.env) => env.CONTRACT_ALLOW_WRITES === '1';

/** Values for path, query and header parameters (and top-level body fields) on a deployment: CONTRACT_PARAMS. */
export function parameterOverrides(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  if (!env.CONTRACT_PARAMS) return {};
  const params = json(env, 'CONTRACT_PARAMS', 'a JSON object such as {"clientId":"...","userId":"..."}');
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new UsageError(`CONTRACT_PARAMS must be a JSON object such as {"clientId":"...","userId":"..."}.`);
  return params as Record<string, unknown>;
}

/** The tenant's inputs of a deployment's run, from the environment; refused unless writes are allowed. */
export function deploymentInputs(env: NodeJS.ProcessEnv): TenantInputs {
  if (!writesAllowed(env))
    throw new UsageError(
      'The journeys create records (users, wallets, endpoints): set CONTRACT_ALLOW_WRITES=1 to run them.',
    );
  const params = parameterOverrides(env);
  const param = (name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '')
      throw new UsageError(`A deployment's run needs CONTRACT_PARAMS's ${name} (${GUIDE}).`);
    return String(value);
  };
  const credentials = (family: string) =>
    json(env, `${envPrefix(family)}CREDENTIALS`, 'the JSON body of the token call, such as {"...":"..."}');
  return {
    clientId: param('clientId'),
    integrationRegister: param('x-integration-register'),
    businessCredentials: credentials('business'),
    v1Credentials: credentials('v1'),
    receiverUrl: required(env, 'JOURNEYS_RECEIVER_URL'),
    runId: freshRunId(),
  };
}
