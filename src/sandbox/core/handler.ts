// What a handler sees and answers. One handler per operationId, found by name (../resources/index.ts), typed
// from the operation types generated from the descriptions: its body, path and query are the operation's own.
import type { operations as BusinessOperations } from 'ramp-api/business';
import type { sandboxOperationTypes as SandboxOperations } from 'ramp-api/sandbox';
import type { operations as V1Operations } from 'ramp-api/v1';
import type { Sql } from '../store/db.js';
import type { EndpointPolicy } from './addresses.js';
import type { Clock } from './clock.js';
import type { InstanceState } from './instance.js';
import type { Tenant } from './tenant.js';

/** Every operation of the three descriptions, by operationId (they share no operationId). */
export type Operations = BusinessOperations & V1Operations & SandboxOperations;
export type OperationId = keyof Operations & string;

type JsonOf<Content> = Content extends { content: { 'application/json': infer Body } } ? Body : never;
/** The operation's JSON body as validated against its description; undefined when it takes none or none was sent. */
export type BodyOf<Op> = Op extends { requestBody: infer Content }
  ? JsonOf<Content>
  : Op extends { requestBody?: infer Content }
    ? JsonOf<NonNullable<Content>> | undefined
    : undefined;
type ParametersOf<Op, In extends string> = Op extends { parameters: { [K in In]?: infer P } }
  ? NonNullable<P> extends Record<string, unknown>
    ? NonNullable<P>
    : Record<never, never>
  : Record<never, never>;
/** Path parameters arrive as the decoded text of their segment. */
type PathOf<Op> = { [K in keyof ParametersOf<Op, 'path'>]-?: string };
/** Query parameters, coerced to the types their schemas give (numbers, booleans) by the request check. */
type QueryOf<Op> = Partial<ParametersOf<Op, 'query'>>;

export type { Tenant } from './tenant.js';

export interface HandlerContext<Id extends OperationId = OperationId> {
  operationId: Id;
  path: PathOf<Operations[Id]>;
  query: QueryOf<Operations[Id]>;
  headers: Record<string, string | undefined>;
  body: BodyOf<Operations[Id]>;
  /** The tenant whose token the call carried; null for operations that need no token. */
  tenant: Tenant | null;
  /** The database: inside one transaction for every call that is not a GET (committed before the answer is sent). */
  sql: Sql;
  clock: Clock;
  /**
   * The sandbox's own origin (its `publicUrl`, else `http://host:port`, the address it listens on): links to the
   * sandbox's pages are made from it, never from a request's Host.
   */
  origin: string;
  /** Where endpoints may be registered (./addresses.ts). */
  endpoints: EndpointPolicy;
  /** What belongs to this running sandbox (its caches and the events it knows), never to the module. */
  instance: InstanceState;
}

export interface Answer {
  status: number;
  body?: unknown;
  /** false: a read whose answer depends on more than the data (the clock), never kept for the next read. */
  keep?: false;
  /**
   * What the process changes in itself once the write's transaction has committed (the clock's offset): never
   * before, so a write refused at its commit leaves the process as the store is.
   */
  committed?: () => void;
}

type Handler<Id extends OperationId> = (ctx: HandlerContext<Id>) => Promise<Answer>;
/** Handlers by operationId: each takes the context of its own operation. */
export type Handlers = { [Id in OperationId]?: Handler<Id> };
/** A handler as the request path calls it: with a context its request check validated against the operation. */
export type AnyHandler = (ctx: HandlerContext) => Promise<Answer>;

/** The handler of `operationId`, if any, as the request path calls it. */
export function handlerOf(handlers: Handlers, operationId: string): AnyHandler | undefined {
  // The context is built from a request validated against this operation's description, from which the
  // handler's types were generated: here, and only here, the operation's own type meets the request.
  return (handlers as Record<string, AnyHandler | undefined>)[operationId];
}

/** The tenant of a call that needs a token (the request path guarantees one is there). */
export function tenantOf(ctx: { tenant: Tenant | null; operationId: string }): Tenant {
  if (!ctx.tenant) throw new Error(`${ctx.operationId} needs a tenant but the call carried none`);
  return ctx.tenant;
}

/** What helpers shared by several handlers read of a call: everything but the operation's own inputs. */
export type CallContext = Omit<HandlerContext, 'operationId' | 'path' | 'query' | 'body'> & { operationId: string };
