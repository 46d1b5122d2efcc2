// The sandbox: one origin for the Business API (/api/...), the v1 API (/api/v1/...) and the control API
// (/sandbox/...). startSandbox only wires the parts together: the store (store/), the routes and validators
// read from the bundles (contract/), one handler per operationId (resources/, events/), the request pipeline
// (pipeline/), the listener (http/), the delivery worker (events/) and the timer that runs delayed trigger
// outcomes as sandbox time passes (core/outcomes.ts). README.md beside this file follows one
// request through them.
import { type AddressInfo, isIP } from 'node:net';
import { type OpenApiDocument, readBundleFile } from './contract/document.js';
import { precompiledValidator } from './contract/reference.js';
import { createRouter } from './contract/router.js';
import { endpointPolicy } from './core/addresses.js';
import { type Clock, createClock } from './core/clock.js';
import { type Handlers, handlerOf } from './core/handler.js';
import { createInstanceState } from './core/instance.js';
import { type SandboxLogger, stderrLogger } from './core/logger.js';
import { type OutcomeTimer, startOutcomeTimer } from './core/outcomes.js';
import { createEventCatalog, type SandboxEvents, startEvents } from './events/index.js';
import { type ConnectionLimits, guardConnections } from './http/connections.js';
import { checkExposure } from './http/exposure.js';
import { createGuard, parsePublicUrl } from './http/guards.js';
import { createListener } from './http/listener.js';
import { createAnswerCheck } from './pipeline/answer-check.js';
import { createAuthenticator } from './pipeline/authenticate.js';
import type { Pipeline } from './pipeline/index.js';
import { createRateLimit } from './pipeline/rate-limit.js';
import { createTransactions } from './pipeline/transaction.js';
import { allHandlers, runDueOutcomes } from './resources/index.js';
import { limitableOperations } from './resources/rate-limits.js';
import { ensureSigningKey } from './resources/tenants.js';
import { loadClockOffset, startingClockOffset } from './store/clock-offset.js';
import { lockDataFolder } from './store/data-lock.js';
import { DatabaseUnavailable, type Db, type DbOptions, openPglite, openPostgres } from './store/db.js';
import { createSpaceCheck } from './store/disk-space.js';
import { migrate, schema } from './store/migrate.js';

export const SANDBOX_FAMILIES = ['business', 'v1', 'sandbox'] as const;

export interface SandboxOptions extends DbOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1. Any address that is not loopback needs `adminToken`. */
  host?: string;
  /**
   * The control API's admin token (at least 16 characters). With it, every control call needs a bearer token
   * its `security` accepts: this token, or for tenant-scoped operations a tenant's own access token.
   */
  adminToken?: string;
  /** A PostgreSQL server to keep the state in instead of PGlite (`postgres://...`). */
  databaseUrl?: string;
  /** An open database to use instead (closed by its owner, not by the sandbox). */
  db?: Db;
  /** The real clock, for tests; default Date.now. */
  realNow?: () => number;
  /**
   * What to do with an answer that breaks the description: 'fail' (default) replaces it with a 500 naming
   * the operation and the field, and records it in `violations`; 'log' records it and lets it through.
   */
  onViolation?: 'fail' | 'log';
  /**
   * Where the sandbox says what went wrong while it runs (an answer that breaks the description, a database
   * outage, a failed delivery, an internal error), one line each; default standard error.
   */
  logger?: SandboxLogger;
  /** Bundles to serve; default dist/openapi/{business,v1,sandbox}.json of this package. */
  bundles?: { family: string; doc: OpenApiDocument }[];
  /** Handlers by operationId; default the sandbox's own. */
  handlers?: Handlers;
  /**
   * Networks webhook endpoints may be in, besides never link-local ones: `loopback`, `private`, `any`, or CIDR
   * blocks. Default loopback and private networks (./core/addresses.ts).
   */
  endpointNetworks?: string[];
  /** How many connections are held and how long a silent or slow one may last (./http/connections.ts). */
  connections?: ConnectionLimits;
  /**
   * Host names to answer for besides those of the address it listens on (for loopback 127.0.0.1, localhost and
   * [::1], with its port): `name` or `name:port`, or `.domain` for a domain and its subdomains. Any other Host is
   * refused with 421, so a page on a domain that rebinds to this address reaches nothing (./http/guards.ts).
   */
  allowedHosts?: string[];
  /**
   * Web origins trusted to change state (`http://127.0.0.1:4000`), which also get CORS. A state-changing request
   * from any other origin is refused with 403; requests that send no Origin (clients, curl) are not affected.
   */
  allowedOrigins?: string[];
  /**
   * The address the sandbox is reached at when a proxy serves it (`https://sandbox.example.test`): links (KYC,
   * checkout) are made from it, its host is answered for and its origin trusted. Default: the address it listens on.
   */
  publicUrl?: string;
}

export interface Sandbox {
  url: string;
  docsUrl: string;
  /** operationIds of the bundles that have no handler (answered 501). */
  gaps: string[];
  /** Answers that broke the description, each naming the operation, the status and the field. */
  violations: string[];
  clock: Clock;
  db: Db;
  /** Events and their delivery. */
  events: SandboxEvents;
  /** The timer that runs delayed trigger outcomes once sandbox time passes their due time. */
  outcomes: OutcomeTimer;
  close(): Promise<void>;
}

export { checkExposure, isLoopback, MIN_ADMIN_TOKEN_LENGTH } from './http/exposure.js';

/** The package's own bundles: dist/openapi/{business,v1,sandbox}.json of the client package it depends on. */
function packageBundles(): { family: string; doc: OpenApiDocument }[] {
  return SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
}

/** Starts `server` listening on `port` at `host`; rejects with the error that stops it (a port in use). */
function listen(server: ReturnType<typeof createListener>, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/**
 * Delayed trigger outcomes fall due with real time too: a pass on a timer runs them, as advanceClock does, with
 * the control API's reach and the pipeline's context.
 */
function startScheduledOutcomes(pipeline: Pipeline, logger: SandboxLogger, checkSpace?: () => Promise<void>) {
  return startOutcomeTimer(
    pipeline.db,
    pipeline.context.clock,
    (sql, limit) =>
      runDueOutcomes(
        { ...pipeline.context, sql, headers: {}, tenant: null, operationId: 'advanceClock' },
        { logger, limit },
      ),
    { logger, checkSpace, stopping: pipeline.context.instance.stopping },
  );
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? stderrLogger();
  checkExposure(host, options.adminToken);
  // Checked before anything is opened: a bad host name, origin or public URL is the caller's to fix.
  const guard = createGuard({
    host,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    publicUrl: options.publicUrl,
  });
  const endpoints = endpointPolicy(options.endpointNetworks);
  const bundles = options.bundles ?? packageBundles();
  const router = createRouter(bundles, precompiledValidator);
  const { routes } = router;
  const limitable = limitableOperations(routes);
  const handlers: Handlers = options.handlers ?? allHandlers(limitable);
  const gaps = routes.map((r) => r.entry.operationId).filter((id) => !handlerOf(handlers, id));

  // The store. One process per data folder: taken before PGlite opens it, given back when the sandbox closes.
  const lock =
    !options.db && !options.databaseUrl && !options.memory && options.dataDir
      ? lockDataFolder(options.dataDir)
      : undefined;
  let db: Db;
  try {
    db =
      options.db ??
      (options.databaseUrl
        ? await openPostgres(options.databaseUrl, logger)
        : await openPglite({ ...options, schemaDigest: schema.digest }));
  } catch (error) {
    lock?.release();
    throw options.databaseUrl ? new DatabaseUnavailable(options.databaseUrl, error) : error;
  }
  const undo: (() => Promise<void>)[] = [
    async () => lock?.release(),
    async () => void (options.db ? undefined : await db.close().catch(() => undefined)),
  ];
  const failed = async (error: unknown) => {
    for (const step of undo.reverse()) await step();
    return error;
  };
  try {
    await migrate(db, schema);
    await ensureSigningKey(db);
  } catch (error) {
    throw await failed(options.databaseUrl ? new DatabaseUnavailable(options.databaseUrl, error) : error);
  }

  // On a shared PostgreSQL, another instance may move the clock: each request and each delivery pass reads it.
  const clock = createClock(
    options.realNow,
    await startingClockOffset(db, logger),
    db.shared ? () => loadClockOffset(db) : undefined,
  );
  const stopping = new AbortController();
  const instance = createInstanceState(
    createEventCatalog(bundles.find((b) => b.family === 'v1')?.doc),
    stopping.signal,
  );
  // A --data folder's writes, the API's and the background's (delivery attempts, scheduled outcomes), all keep
  // its reserve of free space (store/disk-space.ts).
  const checkSpace = lock && options.dataDir ? createSpaceCheck(options.dataDir, logger) : undefined;
  const events = await startEvents(db, clock, endpoints, logger, checkSpace);
  undo.push(() => events.close());
  const violations: string[] = [];
  const pipeline: Pipeline = {
    db,
    router,
    handlerOf: (operationId) => handlerOf(handlers, operationId),
    authenticate: createAuthenticator(db, clock, instance, options.adminToken),
    countCall: createRateLimit(db, clock, limitable),
    run: createTransactions(db),
    checkAnswer: createAnswerCheck(violations, options.onViolation ?? 'fail', logger),
    logger,
    // Links (KYC, checkout) are made from the public URL, else the address it listens on, set below: never from
    // a request's Host, which a client chooses.
    context: { clock, endpoints, instance, origin: '' },
    ...(checkSpace && options.dataDir ? { checkSpace, dataDir: options.dataDir } : {}),
  };
  const outcomeTimer = startScheduledOutcomes(pipeline, logger, checkSpace);
  undo.push(() => outcomeTimer.close());
  const server = createListener(pipeline, guard, bundles.find((b) => b.family === 'sandbox')?.doc);
  guardConnections(server, options.connections);
  try {
    await listen(server, options.port ?? 0, host);
  } catch (error) {
    throw await failed(error);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  guard.listening(port);
  pipeline.context.origin = options.publicUrl === undefined ? url : parsePublicUrl(options.publicUrl);
  let closed: Promise<void> | undefined;
  return {
    url,
    docsUrl: `${url}/sandbox/docs`,
    gaps,
    violations,
    clock,
    db,
    events,
    outcomes: outcomeTimer,
    close() {
      closed ??= (async () => {
        stopping.abort();
        await outcomeTimer.close();
        await events.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (!options.db) await db.close();
        lock?.release();
      })();
      return closed;
    },
  };
}
