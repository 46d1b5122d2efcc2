// The request path of an operation, as named stages in order: route (the router of ../contract/router.ts),
// authentication, rate limit, body, request check, transaction (the operation's handler), answer check. Each
// stage is a file of this folder; this one runs them and turns what they throw into an answer.

import type { IncomingMessage } from 'node:http';
import type { Route, Router, Target } from '../contract/router.js';
import type { AnyHandler, HandlerContext } from '../core/handler.js';
import type { SandboxLogger } from '../core/logger.js';
import { Refusal, refusalBody, refusals } from '../core/refusals.js';
import { DATABASE_RETRY_AFTER_SECONDS, type Db, isDatabaseUnavailable, isDataException } from '../store/db.js';
import { isDiskFull, storageFull } from '../store/disk-space.js';
import { isQuotaExceeded, TENANT_QUOTA } from '../store/quotas.js';
import type { CheckAnswer } from './answer-check.js';
import type { Authenticate } from './authenticate.js';
import { requestBody, SAFE_METHODS } from './body.js';
import type { CountCall } from './rate-limit.js';
import { checkRequest } from './request-check.js';
import type { KeptAnswer, RunHandler } from './transaction.js';

/** What is sent: status, body (and its JSON text), headers. */
export interface Sent {
  status: number;
  body: unknown;
  text: string;
  headers?: Record<string, string>;
}

export interface Pipeline {
  db: Db;
  router: Router;
  handlerOf(operationId: string): AnyHandler | undefined;
  authenticate: Authenticate;
  countCall: CountCall;
  run: RunHandler;
  checkAnswer: CheckAnswer;
  /** Where faults met while answering are said (a database outage). */
  logger: SandboxLogger;
  /** Refuses a write while the store's file system is full (a --data folder's); absent for other stores. */
  checkSpace?: () => Promise<void>;
  /** The --data folder, when the store is PGlite on disk: named in the refusal of a write it has no room for. */
  dataDir?: string;
  /** The handler's context but for the request's own parts and the store (`origin`: the sandbox's own address). */
  context: Omit<HandlerContext, 'operationId' | 'path' | 'query' | 'headers' | 'body' | 'tenant' | 'sql'>;
}

function refusalAnswer(route: Route, refusal: Refusal): KeptAnswer & { headers?: Record<string, string> } {
  return { status: refusal.status, body: refusalBody(refusal, route.family), headers: refusal.headers };
}

/**
 * The answer to `req` after every stage, checked against the description. A method and path that name no
 * operation throw the router's refusal (404, 405), answered as the listener answers any refusal before a route.
 */
export async function answerOperation(
  pipeline: Pipeline,
  method: string,
  target: Target,
  req: IncomingMessage,
): Promise<Sent> {
  const found = pipeline.router.match(method, target.pathname);
  if (!found.route)
    throw found.missing === 'method'
      ? refusals.methodNotAllowed(method, target.pathname, found.allowed ?? [])
      : refusals.noOperation(method, target.pathname);
  const { route, params } = found;
  const result = await runStages(pipeline, route, params, target, req);
  // A kept read's answer was checked and serialized when it was first sent: it is sent again as it was.
  if (result.sent) return { status: result.sent.status, body: undefined, text: result.sent.text };
  const answered = pipeline.checkAnswer(route, result.status, result.body);
  const sent = { ...answered, text: answered.body === undefined ? '' : JSON.stringify(answered.body) };
  if (sent.status !== result.status) return sent;
  result.keep?.({ status: sent.status, text: sent.text });
  return { ...sent, headers: result.headers };
}

async function runStages(
  pipeline: Pipeline,
  route: Route,
  params: Record<string, string>,
  target: Target,
  req: IncomingMessage,
): Promise<KeptAnswer & { headers?: Record<string, string> }> {
  const { db } = pipeline;
  const handler = pipeline.handlerOf(route.entry.operationId);
  if (!handler) return refusalAnswer(route, refusals.notImplemented(route.entry.operationId));
  try {
    // Only a shared database's clock can move under this process.
    if (db.shared) await pipeline.context.clock.sync();
    const tenant = await pipeline.authenticate(route, req);
    const counting = pipeline.countCall(route, tenant);
    if (counting) await counting;
    // A method that stores nothing is answered even while the disk is full.
    if (pipeline.checkSpace && !SAFE_METHODS.has(route.entry.method)) await pipeline.checkSpace();
    const body = requestBody(route, req);
    const read = body instanceof Promise ? await body : body;
    const request = checkRequest(route, params, target, req, read);
    const context = (sql: HandlerContext['sql']): HandlerContext =>
      ({
        ...pipeline.context,
        ...request,
        operationId: route.entry.operationId,
        tenant,
        sql,
      }) as HandlerContext;
    // A read's answer is kept under its tenant, path parameters and documented query only: an undocumented
    // parameter never reached `request`, so no number of them makes another copy of an answer.
    const key = JSON.stringify([tenant?.id ?? null, request.path, request.query]);
    return await pipeline.run(route, handler, context, key);
  } catch (error) {
    if (error instanceof Refusal) return refusalAnswer(route, error);
    // The database is down, restarting or out of connections: nothing was done; the client may try again.
    if (isDatabaseUnavailable(error)) {
      const { code, message } = error as { code?: string; message?: string };
      pipeline.logger.error(`[sandbox] ${route.entry.operationId}: the database is unavailable (${code ?? message})`);
      return refusalAnswer(
        route,
        refusals.unavailable(
          `The sandbox's database is unavailable (down or restarting); nothing was done. Retry after ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
          DATABASE_RETRY_AFTER_SECONDS,
        ),
      );
    }
    // The space check above keeps writes away from a full disk; this is the net for one that filled meanwhile.
    if (isDiskFull(error) && pipeline.dataDir) {
      pipeline.logger.error(`[sandbox] ${route.entry.operationId}: the data folder ${pipeline.dataDir} is full`);
      return refusalAnswer(route, storageFull());
    }
    if (isQuotaExceeded(error))
      return refusalAnswer(
        route,
        refusals.quotaExceeded(
          `The tenant has reached its quota (${TENANT_QUOTA.records} records, ${TENANT_QUOTA.bytes / 2 ** 20} MiB of them in all), the most the sandbox keeps for one tenant; nothing was done. Start again from an empty sandbox (resetSandbox), or use another tenant (createTenant).`,
        ),
      );
    // A value PostgreSQL cannot take (a text it cannot convert, a number or date outside its range): the request's.
    if (isDataException(error)) {
      const message = `A value of the request cannot be stored or compared: ${(error as Error).message}.`;
      return refusalAnswer(route, refusals.invalidRequest(route.invalidStatus, message));
    }
    throw error;
  }
}
