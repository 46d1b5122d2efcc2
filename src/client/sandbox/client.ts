// The sandbox control API client (`ramp-api/sandbox`): `createSandboxClient` and the control API's types.
import { createRampClient, type RampClient, type RampClientOptions } from '../core/client.js';
import { ConfigurationError } from '../core/errors.js';
import { sandboxOperations } from '../generated/sandbox-meta.js';
import type { paths } from '../generated/sandbox.js';

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
