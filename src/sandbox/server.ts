// The sandbox server: node:http, one origin for the Business API (/api/...), the v1 API (/api/v1/...) and the
// control API (/sandbox/...). Routes and validation come from the bundles (router.ts), state from SQL (db.ts),
// behaviour from one handler per operationId (resources/).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleDir, readBundleFile, type OpenApiDocument } from './openapi/document.js';
import { createClock, type Clock } from './clock.js';
import { checkExposure } from './exposure.js';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DatabaseUnavailable,
  isDataException,
  isDatabaseUnavailable,
  openPglite,
  openPostgres,
  type Db,
  type DbOptions,
} from './db.js';
import { lockDataFolder } from './data-lock.js';
import { hasBody, parseBody, readBody, requireJson } from './request-body.js';
import { Refusal, type Handlers, type HandlerContext, type Tenant } from './handler.js';
import { allHandlers, migrate, loadClockOffset } from './resources/index.js';
import { ensureSigningKey, tenantForToken } from './resources/tenants.js';
import { countCall, limitableOperations, rateLimitHandlers } from './rate-limits.js';
import { buildRoutes, type Route } from './router.js';
import { eventHandlers, startEvents, type SandboxEvents } from './events/index.js';
import { readReferencePage } from './reference.js';
import { createPageServer } from './page-server.js';
import { guardConnections, type ConnectionLimits } from './connections.js';
import { endpointPolicy } from './events/addresses.js';

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
  /** Bundles to serve; default dist/openapi/{business,v1,sandbox}.json of this package. */
  bundles?: { family: string; doc: OpenApiDocument }[];
  /** Handlers by operationId; default the sandbox's own. */
  handlers?: Handlers;
  /**
   * Networks webhook endpoints may be in, besides never link-local ones: `loopback`, `private`, `any`, or CIDR
   * blocks. Default loopback and private networks (./events/addresses.ts).
   */
  endpointNetworks?: string[];
  /** How many connections are held and how long a silent or slow one may last (./connections.ts). */
  connections?: ConnectionLimits;
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
  /** Events and their delivery (issue 15). */
  events: SandboxEvents;
  close(): Promise<void>;
}

export { checkExposure, isLoopback, MIN_ADMIN_TOKEN_LENGTH } from './exposure.js';

/** A `Host` header that names a host (name, IPv4 or bracketed IPv6) and an optional port, and nothing else. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))(?::\d{1,5})?$/;

const digest = (text: string) => createHash('sha256').update(text).digest();

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
  headers?: Record<string, string>,
  json?: string | Buffer,
): void {
  const text = json ?? (body === undefined ? '' : type === 'application/json' ? JSON.stringify(body) : String(body));
  // A body left unread (refused, too large, or sent to an operation that takes none) ends the connection.
  const unread = res.req && !res.req.complete ? { connection: 'close' } : undefined;
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
    ...unread,
  });
  res.end(text);
}

/**
 * What /sandbox/docs shows where the rendered reference (reference.ts) was never built, as in a checkout before
 * any bundle, build or docs run: the operations by summary, the description, and how to build the page.
 */
function unbuiltDocsPage(docs: OpenApiDocument): string {
  const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = Object.entries(docs.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([, op]) => op && typeof op === 'object' && op.operationId)
      .map(
        ([method, op]) =>
          `<tr><td><code>${esc(op.operationId)}</code></td><td><code>${method.toUpperCase()} ${esc(path)}</code></td><td>${esc(op.summary)}</td></tr>`,
      ),
  );
  return `<!doctype html><meta charset="utf-8"><title>${esc(docs.info.title)}</title><style>body{font-family:sans-serif;max-width:70em;margin:2em auto}td{vertical-align:top;border-top:1px solid #ddd;padding:.4em}</style>
<h1>${esc(docs.info.title)}</h1><p>${esc(docs.info.summary)}</p>
<p>The rendered reference is not built here: <code>npm run bundle</code> (or <code>npm run docs</code>) in the repository builds it, and the package ships it. Meanwhile, the description: <a href="/sandbox/openapi.json">/sandbox/openapi.json</a> (typed client: <code>createSandboxClient</code> from <code>ramp-api/sandbox</code>).</p>
<table><tr><th>operationId</th><th>Call</th><th>What it does</th></tr>${rows.join('')}</table>`;
}

interface Target {
  pathname: string;
  searchParams: URLSearchParams;
}

/**
 * A plain origin-form target: `/`, then unreserved characters and `/`, then an optional query. Each part is one
 * character class under one quantifier, so a test takes time linear in the target, whatever it holds (a
 * nested quantifier here once took minutes on `/` and 40 letters and a `!`).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9_~.\/-]*$/;
/** A dot segment or an empty segment: the URL parser, not a plain split, decides what such a path means. */
const ODD_SEGMENT = /\/\/|\/\.\.?(?:\/|$)/;

/**
 * The path and query of a request target. A plain one, as every client sends, is split as it is (parsing a
 * URL was 7% of the sandbox's time on a read); anything else (percent-escapes, dot segments, `//`) goes
 * through the URL parser, which normalizes it, and throws when it cannot.
 */
function requestTarget(target: string): Target {
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path) && !ODD_SEGMENT.test(path) && (query < 0 || !target.includes('#', query))) {
    return { pathname: path, searchParams: new URLSearchParams(query < 0 ? '' : target.slice(query + 1)) };
  }
  return new URL(target, 'http://sandbox.invalid');
}

let compiled: { key: string; bundles: { family: string; doc: OpenApiDocument }[]; routes: Route[] } | undefined;

/**
 * The package's own bundles and their routes, compiled once per process while the files stay the same:
 * compiling every validator is most of a start once the database is quick (tests start dozens of sandboxes).
 */
function defaultRoutes(): { bundles: { family: string; doc: OpenApiDocument }[]; routes: Route[] } {
  const texts = SANDBOX_FAMILIES.map((family) => readFileSync(join(bundleDir(), `${family}.json`), 'utf8'));
  const key = texts.join('\u0000');
  if (compiled?.key !== key) {
    const bundles = SANDBOX_FAMILIES.map((family) => ({ family, doc: readBundleFile(family) }));
    compiled = { key, bundles, routes: buildRoutes(bundles) };
  }
  return compiled;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  checkExposure(host, options.adminToken);
  const endpoints = endpointPolicy(options.endpointNetworks);
  // Compared as digests of equal length, in constant time: neither the token nor its length leaks by timing.
  const adminDigest = options.adminToken === undefined ? undefined : digest(options.adminToken);
  const { bundles, routes } = options.bundles
    ? { bundles: options.bundles, routes: buildRoutes(options.bundles) }
    : defaultRoutes();
  const limitable = limitableOperations(routes);
  const handlers = options.handlers ?? { ...allHandlers, ...eventHandlers, ...rateLimitHandlers(limitable) };
  const gaps = routes.map((r) => r.entry.operationId).filter((id) => !handlers[id]);
  // One process per data folder: taken before PGlite opens it, given back when the sandbox closes.
  const lock =
    !options.db && !options.databaseUrl && !options.memory && options.dataDir
      ? lockDataFolder(options.dataDir)
      : undefined;
  let db: Db;
  try {
    db = options.db ?? (options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPglite(options));
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
    await migrate(db);
    await ensureSigningKey(db);
  } catch (error) {
    throw await failed(options.databaseUrl ? new DatabaseUnavailable(options.databaseUrl, error) : error);
  }
  // On a shared PostgreSQL, another instance may move the clock: each request and each delivery pass reads it.
  const clock = createClock(
    options.realNow,
    await loadClockOffset(db),
    db.shared ? () => loadClockOffset(db) : undefined,
  );
  const events = await startEvents(db, clock, endpoints);
  undo.push(() => events.close());
  const violations: string[] = [];
  const onViolation = options.onViolation ?? 'fail';
  const controlDoc = bundles.find((b) => b.family === 'sandbox')?.doc;
  const pages = createPageServer();
  /** The address the sandbox listens on, set once it does: the origin of links when a request's Host is unusable. */
  let ownOrigin = '';

  /**
   * The tenant a call acts for: null for a public operation, and for a control call made with the admin token
   * (or with no token on a sandbox that has none), which reaches every tenant. A tenant's token on a control
   * operation that accepts it scopes the call to that tenant's records.
   */
  async function authenticate(route: Route, req: IncomingMessage): Promise<Tenant | null> {
    if (!route.secured) return null;
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const admin = route.credentials.includes('admin');
    if (admin && !token && !adminDigest) return null;
    if (admin && token && adminDigest && timingSafeEqual(digest(token), adminDigest)) return null;
    let tenant: Tenant | null = null;
    for (const family of route.credentials) {
      if (family === 'admin') continue;
      tenant ??= token ? await tenantForToken(db, token, family, clock.now(), !db.shared) : null;
    }
    if (tenant) return tenant;
    const needs = !admin
      ? 'A valid, unexpired access token of this API family is required.'
      : route.credentials.length > 1
        ? "This control operation needs the sandbox's admin token or a tenant's own access token."
        : "This control operation needs the sandbox's admin token.";
    throw new Refusal(401, 'unauthorized', needs);
  }

  /** An answer kept for a read; `sent` is what was sent for it once checked against the description. */
  type Kept = { status: number; body: unknown; sent?: { status: number; body: unknown; text?: string } };
  const remembered = new Map<Route, Map<string, { generation: number; answer: Kept }>>();
  let rememberedCount = 0;
  function remember(route: Route, key: string, entry: { generation: number; answer: Kept }): void {
    if (rememberedCount >= 2000) {
      remembered.clear();
      rememberedCount = 0;
    }
    let byKey = remembered.get(route);
    if (!byKey) remembered.set(route, (byKey = new Map()));
    byKey.set(key, entry);
    rememberedCount++;
  }

  async function answer(
    route: Route,
    params: Record<string, string>,
    url: Target,
    req: IncomingMessage,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const handler = handlers[route.entry.operationId];
    if (!handler)
      return {
        status: 501,
        body: { error: 'not_implemented', message: `The sandbox has no handler for ${route.entry.operationId}.` },
      };
    try {
      // Only a shared database's clock can move under this process.
      if (db.shared) await clock.sync();
      const tenant = await authenticate(route, req);
      if (limitable.has(route.entry.operationId)) await countCall(db, route.entry.operationId, tenant, clock);
      // A body is read only for an operation that takes one, and only as JSON (415 otherwise, 413 past 1 MiB).
      // One sent to an operation that takes none is left unread (the connection is closed after the answer).
      let text = '';
      if (route.acceptsBody && hasBody(req)) {
        requireJson(req);
        text = await readBody(req);
      }
      const body: unknown = text.length ? parseBody(text, route.invalidStatus) : undefined;
      const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
      const headers = req.headers as Record<string, string | undefined>;
      const problems = route.checkRequest({ path: params, query, headers, body, hasBody: text.length > 0 });
      if (problems.length)
        throw new Refusal(
          route.invalidStatus,
          'invalid_request',
          `The request breaks the description: ${problems.join('; ')}`,
        );
      const origin =
        typeof headers.host === 'string' && HOST_HEADER.test(headers.host) ? `http://${headers.host}` : ownOrigin;
      const context = (sql: HandlerContext['sql']): HandlerContext => ({
        operationId: route.entry.operationId,
        path: params,
        query,
        headers,
        body,
        tenant,
        sql,
        clock,
        origin,
        endpoints,
      });
      if (route.entry.method !== 'get') {
        // A write is committed before its answer is sent: the transaction ends before this returns.
        const result = await db.transaction((tx) => handler(context(tx)));
        return { status: result.status, body: result.body };
      }
      // A read's answer depends on its tenant, path and query and on the data only (GET handlers read no clock
      // and no header): on PGlite it is kept until the next write, like the rows it was made from.
      const generation = db.generation?.();
      const key = `${tenant?.id ?? ''} ${req.url}`;
      const known = generation === undefined ? undefined : remembered.get(route)?.get(key);
      if (known && known.generation === generation) return known.answer;
      const result = await handler(context(db.reads));
      const answer: Kept = { status: result.status, body: result.body };
      if (generation !== undefined && db.generation!() === generation && result.keep !== false)
        remember(route, key, { generation, answer });
      return answer;
    } catch (error) {
      if (error instanceof Refusal) {
        const body =
          route.family === 'sandbox'
            ? { error: error.code, message: error.message }
            : { error: error.code, message: error.message, ...error.details };
        return { status: error.status, body, headers: error.headers };
      }
      // The database is down, restarting or out of connections: nothing was done; the client may try again.
      if (isDatabaseUnavailable(error)) {
        console.error(
          `[sandbox] ${route.entry.operationId}: the database is unavailable (${(error as { code?: string }).code ?? (error as Error).message})`,
        );
        const message = `The sandbox's database is unavailable (down or restarting); nothing was done. Retry after ${DATABASE_RETRY_AFTER_SECONDS} seconds.`;
        return {
          status: 503,
          body: { error: 'unavailable', message },
          headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
        };
      }
      // A value PostgreSQL cannot take (a text it cannot convert, a number or date outside its range): the request's.
      if (isDataException(error)) {
        const message = `A value of the request cannot be stored or compared: ${(error as Error).message}.`;
        return { status: route.invalidStatus, body: { error: 'invalid_request', message } };
      }
      throw error;
    }
  }

  /** The answer as sent: as given when it matches the description, else the violation's 500 (or as given, under 'log'). */
  function checked(route: Route, status: number, body: unknown): { status: number; body: unknown } {
    const problems = route.checkResponse(status, body);
    if (problems?.length === 0) return { status, body };
    const message = `${route.entry.operationId} answered ${status}, which breaks the description: ${problems === null ? `status ${status} is not documented` : problems.join('; ')}`;
    violations.push(message);
    console.error(`[sandbox] ${message}`);
    return onViolation === 'fail'
      ? { status: 500, body: { error: 'sandbox_contract_violation', message } }
      : { status, body };
  }

  const server = createServer((req, res) => {
    void (async () => {
      let url: Target;
      try {
        url = requestTarget(req.url ?? '/');
      } catch {
        return send(res, 400, { error: 'invalid_request', message: 'Malformed request target.' });
      }
      const method = (req.method ?? 'GET').toLowerCase();
      if (method === 'get' && url.pathname === '/sandbox/openapi.json' && controlDoc) return send(res, 200, controlDoc);
      if (method === 'get' && (url.pathname === '/sandbox' || url.pathname === '/sandbox/docs') && controlDoc) {
        return send(res, 200, (await readReferencePage()) ?? unbuiltDocsPage(controlDoc), 'text/html');
      }
      const page = pages(method, url.pathname);
      if (page) return send(res, page.status, undefined, page.type, page.headers, page.body);
      let pathMatched = false;
      const segments = url.pathname.split('/').length;
      for (const route of routes) {
        if (route.segments !== segments) continue;
        const params = route.match(url.pathname);
        if (!params) continue;
        pathMatched = true;
        if (route.entry.method !== method) continue;
        const result: Kept & { headers?: Record<string, string> } = await answer(route, params, url, req);
        const { status, body, headers } = result;
        // A kept read's answer was checked and serialized when it was first sent: it is sent again as it was.
        let out = result.sent;
        if (!out) {
          const answered = checked(route, status, body);
          out = { ...answered, text: answered.body === undefined ? '' : JSON.stringify(answered.body) };
          if (out.status === status) result.sent = out;
        }
        return send(res, out.status, out.body, undefined, out.status === status ? headers : undefined, out.text);
      }
      send(res, pathMatched ? 405 : 404, {
        error: pathMatched ? 'method_not_allowed' : 'not_found',
        message: `No operation for ${method.toUpperCase()} ${url.pathname}.`,
      });
    })().catch((error: unknown) => {
      console.error('[sandbox] internal error:', error instanceof Error ? error.stack : error);
      if (!res.headersSent) send(res, 500, { error: 'internal', message: 'The sandbox failed; see its log.' });
      else res.destroy();
    });
  });
  guardConnections(server, options.connections);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    throw await failed(error);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  ownOrigin = url;
  let closed: Promise<void> | undefined;
  return {
    url,
    docsUrl: `${url}/sandbox/docs`,
    gaps,
    violations,
    clock,
    db,
    events,
    close() {
      closed ??= (async () => {
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
