// The sandbox control API client (`ramp-api/sandbox`): `createSandboxClient` and the control API's types.
import { createRampClient, type RampClient, type RampClientOptions } from '../core/client.js';
import { sandboxOperations } from '../generated/sandbox-meta.js';
import type { paths } from '../generated/sandbox.js';

export type { components as sandboxComponents, paths as sandboxPaths } from '../generated/sandbox.js';
export { sandboxOperations } from '../generated/sandbox-meta.js';

export type SandboxClient = RampClient<paths, typeof sandboxOperations>;

/**
 * A typed client for a local sandbox's control API (`/sandbox/...`): tenants, approvals, funding, settlement
 * and the clock. It needs no token. `createTenant` answers carry credentials, so its error bodies are kept
 * out of `ApiError`, as a token call's are.
 */
export function createSandboxClient(options: Omit<RampClientOptions, 'auth'>): SandboxClient {
  return createRampClient<paths, typeof sandboxOperations>(options, {
    operations: sandboxOperations,
    tokenOperationId: 'createTenant',
    defaultTokenLifetimeSeconds: null,
  });
}
