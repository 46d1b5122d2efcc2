// The sandbox control API client (`ramp-api/sandbox`): `createSandboxClient` and the control API's types.
import { createRampClient, type RampClient, type RampClientOptions } from '../core/client.js';
import { CallError, ConfigurationError, NetworkError, TimeoutError } from '../core/errors.js';
import type { components, paths } from '../generated/sandbox.js';
import { sandboxOperations } from '../generated/sandbox-meta.js';

export type {
  components as sandboxComponents,
  operations as sandboxOperationTypes,
  paths as sandboxPaths,
} from '../generated/sandbox.js';
export { sandboxOperations } from '../generated/sandbox-meta.js';

export type SandboxClient = RampClient<paths, typeof sandboxOperations>;

export interface SandboxClientOptions extends Omit<RampClientOptions, 'auth'> {
  /**
   * The sandbox's admin token (`SANDBOX_ADMIN_TOKEN`), sent as `Authorization: Bearer ...` with every control
   * call, for a sandbox started with one. A tenant's own Business or v1 access token may be given here
   * instead: the tenant-scoped operations then reach that tenant's records only. Never shown in errors or logs.
   */
  adminToken?: string | undefined;
}

/**
 * A typed client for a local sandbox's control API (`/sandbox/...`): tenants, approvals, funding, settlement
 * and the clock. It needs a token only when the sandbox runs with an admin token (`adminToken`).
 * `createTenant` answers carry credentials, so its error bodies are kept out of `ApiError`, as a token call's are.
 */
export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const { adminToken, ...rest } = options ?? ({} as SandboxClientOptions);
  // Most often read from a variable a test's setup was to set: say which, and who sets it.
  if (typeof rest.baseUrl !== 'string' || rest.baseUrl.trim() === '')
    throw new ConfigurationError(
      "`baseUrl` is required: the sandbox's address, which `npx ramp-api-sandbox` prints (http://127.0.0.1:PORT). Read from SANDBOX_URL? It is empty or not set: start the sandbox and set it, or, with vitest, list the global setup that starts the sandbox and sets SANDBOX_URL in vitest.config.ts's `globalSetup` (docs/guides/sandbox-in-tests.md, With vitest).",
    );
  if (adminToken !== undefined && (typeof adminToken !== 'string' || adminToken === ''))
    throw new ConfigurationError('`adminToken` must be a non-empty string.');
  return createRampClient<paths, typeof sandboxOperations>(
    adminToken === undefined ? rest : { ...rest, auth: { token: adminToken } },
    {
      operations: sandboxOperations,
      tokenOperationId: 'createTenant',
      defaultTokenLifetimeSeconds: null,
    },
  );
}

/** What a sandbox says of itself on `GET /sandbox` (`getSandbox`). */
export type SandboxIdentity = components['schemas']['SandboxIdentity'];

/**
 * Checks that a ramp-api sandbox answers at `options.baseUrl` (its `GET /sandbox` says so) and returns what it
 * says; throws a ConfigurationError naming the address when nothing answers there, or another service does (a
 * port taken by something else answers anything but the sandbox's identity), so that a test or a script never
 * runs against it by accident.
 */
export async function checkSandbox(options: SandboxClientOptions): Promise<SandboxIdentity> {
  const where = String(options?.baseUrl);
  const fix = 'start the sandbox (`npx ramp-api-sandbox` prints its address) and use the address it prints';
  let answer: Awaited<ReturnType<SandboxClient['getSandbox']>>;
  try {
    answer = await createSandboxClient({ ...options, retry: false }).getSandbox();
  } catch (error) {
    if (error instanceof NetworkError || error instanceof TimeoutError)
      throw new ConfigurationError(`Nothing answers as a ramp-api sandbox at ${where}: ${fix}.`, { cause: error });
    // Anything else that comes back (a page, a body that is not JSON, a redirect) is another service's answer.
    if (error instanceof CallError)
      throw new ConfigurationError(
        `${where} is not a ramp-api sandbox: GET /sandbox answered something else (${error.name}), so another service answers there; ${fix}.`,
        { cause: error },
      );
    throw error;
  }
  const identity = answer.data as Partial<SandboxIdentity> | undefined;
  if (answer.response.ok && identity?.service === 'ramp-api-sandbox') return identity as SandboxIdentity;
  throw new ConfigurationError(
    `${where} is not a ramp-api sandbox: GET /sandbox answered ${answer.response.status}${answer.response.ok ? " without the sandbox's identity" : ''}, so another service answers there; ${fix}.`,
  );
}
