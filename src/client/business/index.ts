// The Business API client (`ramp-api/business`): `createBusinessClient` and the description's types.
import { createRampClient, type RampClient, type RampClientOptions } from '../core/client.js';
import { TokenOperation } from '../core/token-operations.js';
import type { paths } from '../generated/business.js';
import { businessOperations, businessTokenLifetimeSeconds } from '../generated/business-meta.js';

export type { components, operations, paths } from '../generated/business.js';
export { businessOperations } from '../generated/business-meta.js';

export type BusinessClient = RampClient<paths, typeof businessOperations>;

/**
 * A typed client for the Business API. Tokens from `POST /api/token` are cached and renewed shortly before
 * their 5-minute lifetime ends (or their JWT `exp`), GET calls are retried safely, POST and DELETE never.
 */
export function createBusinessClient(options: RampClientOptions): BusinessClient {
  return createRampClient<paths, typeof businessOperations>(options, {
    operations: businessOperations,
    tokenOperationId: TokenOperation.business,
    defaultTokenLifetimeSeconds: businessTokenLifetimeSeconds,
    credentialsOf: 'Business',
  });
}
