// What a handler sees and answers. One handler per operationId, found by name (src/sandbox/resources/).
import type { Clock } from './clock.js';
import type { Sql } from './db.js';

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
}

export interface Answer {
  status: number;
  body?: unknown;
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

/** The tenant of a call that needs a token (the server guarantees one is there). */
export function tenantOf(ctx: HandlerContext): Tenant {
  if (!ctx.tenant) throw new Error(`${ctx.operationId} needs a tenant but the call carried none`);
  return ctx.tenant;
}
