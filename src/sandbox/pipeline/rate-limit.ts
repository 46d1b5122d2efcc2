// Stage 3, the rate limit: a call of an operation that can be limited is counted (429 once over the limit).
import type { Route } from '../contract/router.js';
import type { Clock } from '../core/clock.js';
import type { Tenant } from '../core/handler.js';
import { countCall } from '../resources/rate-limits.js';
import type { Db } from '../store/db.js';

/** Undefined (nothing to wait for) for an operation that cannot be limited: most calls take no extra turn. */
export type CountCall = (route: Route, tenant: Tenant | null) => Promise<void> | undefined;

export function createRateLimit(db: Db, clock: Clock, limitable: Set<string>): CountCall {
  return (route, tenant) =>
    limitable.has(route.entry.operationId) ? countCall(db, route.entry.operationId, tenant, clock) : undefined;
}
