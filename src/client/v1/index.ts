// The v1 API client (`ramp-api/v1`): `createV1Client` and the description's types.
import { createRampClient, type RampClient, type RampClientOptions } from '../core/client.js';
import { TokenOperation } from '../core/token-operations.js';
import type { paths } from '../generated/v1.js';
import { v1Operations, v1TokenLifetimeSeconds } from '../generated/v1-meta.js';

export type { components, operations, paths, webhooks } from '../generated/v1.js';
export { v1Operations } from '../generated/v1-meta.js';

export type V1Client = RampClient<paths, typeof v1Operations>;

/**
 * A typed client for the v1 API. Tokens from `POST /api/v1/client/token` are cached (their lifetime is not
 * documented, so they are renewed on a 401 or at their JWT `exp`); payouts, on-ramps and registrations are
 * never repeated automatically.
 */
export function createV1Client(options: RampClientOptions): V1Client {
  return createRampClient<paths, typeof v1Operations>(options, {
    operations: v1Operations,
    tokenOperationId: TokenOperation.v1,
    defaultTokenLifetimeSeconds: v1TokenLifetimeSeconds,
    credentialsOf: 'v1',
  });
}
