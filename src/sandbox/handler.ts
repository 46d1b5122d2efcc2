// What a handler sees and answers. One handler per operationId, found by name (src/sandbox/resources/).
import type { Clock } from './clock.js';
import type { Sql } from './db.js';
import type { EndpointPolicy } from './events/addresses.js';

export interface Tenant {
  id: string;
  name: string;
}

export interface HandlerContext {
  operationId: string;
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  body: any;
  /** The tenant whose token the call carried; null for operations that need no token. */
  tenant: Tenant | null;
  /** The database: inside one transaction for every call that is not a GET (committed before the answer is sent). */
  sql: Sql;
  clock: Clock;
  /**
   * The sandbox's own origin as the caller reached it (`http://host:port`, from a well-formed `Host` header,
   * else the address it listens on): links to the sandbox's pages are made from it.
   */
  origin: string;
  /** Where endpoints may be registered (./events/addresses.ts). */
  endpoints: EndpointPolicy;
}

export interface Answer {
  status: number;
  body?: unknown;
  /** false: a read whose answer depends on more than the data (the clock), never kept for the next read. */
  keep?: false;
}

export type Handler = (ctx: HandlerContext) => Promise<Answer>;
export type Handlers = Record<string, Handler>;

/** A refusal: the server answers `status` with `{ error: code, message, ...details }`. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries (e.g. `retry-after`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export function refuse(status: number, code: string, message: string, details?: Record<string, unknown>): never {
  throw new Refusal(status, code, message, details);
}

/**
 * A control call made with a tenant's own token (rather than the admin token) reaches that tenant's records
 * only: a record of another tenant (`ownerId`, its tenant) is answered exactly as an unknown one, with 404 and
 * the same `message`, before its state is looked at.
 */
export function requireInScope(ctx: HandlerContext, ownerId: string | null | undefined, message: string): void {
  if (ctx.tenant && ctx.tenant.id !== ownerId) refuse(404, 'not_found', message);
}

/** The tenant of a call that needs a token (the server guarantees one is there). */
export function tenantOf(ctx: HandlerContext): Tenant {
  if (!ctx.tenant) throw new Error(`${ctx.operationId} needs a tenant but the call carried none`);
  return ctx.tenant;
}
