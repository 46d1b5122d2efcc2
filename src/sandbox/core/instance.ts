// What belongs to one running sandbox rather than to a module: two sandboxes in one process share nothing here.
import type { Sql } from '../store/db.js';
import type { Clock } from './clock.js';
import type { Tenant } from './tenant.js';

/** The events one sandbox knows: those its v1 description lists, and a check of a payload against them. */
export interface EventCatalog {
  /** The event names the v1 description's `webhooks:` lists. */
  documented(): string[];
  /** Problems of `payload` against the schema of `event`; throws for an event the description does not list. */
  check(event: string, payload: unknown): string[];
  /**
   * Records `event` for `tenantId`, and a delivery to each endpoint that receives it, inside the transaction of
   * `ctx.sql` (so an event exists exactly when its change was committed). Resolves with the envelope.
   */
  emit(
    ctx: { sql: Sql; clock: Pick<Clock, 'now'> },
    tenantId: string,
    event: string,
    data: Record<string, unknown>,
  ): Promise<{ id: string; event: string; createdAt: string }>;
}

export interface CachedToken {
  tenant: Tenant;
  family: string;
  expiresAt: number;
  cachedAt: number;
}

export interface InstanceState {
  /** Tokens this sandbox looked up recently (see ../resources/tenants.ts). */
  tokens: Map<string, CachedToken>;
  /** The tables whose `id` names a record, read once from this sandbox's store (see ../resources/identifiers.ts). */
  recordTables?: string[];
  events: EventCatalog;
}

export function createInstanceState(events: EventCatalog): InstanceState {
  return { tokens: new Map(), events };
}
