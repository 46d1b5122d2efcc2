// Sends one request with the `ramp-api` client, as a program would: the client gets the token through the
// family's token operation, caches it and renews it as it always does. A fetch of its own records what went over
// the wire (the request as sent, the answer as received, the time), with the token never kept.
import { createBusinessClient, createSandboxClient, createV1Client } from 'ramp-api';
import type { Call } from './model.js';

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: [string, string][];
  requestBody?: string;
  status: number;
  statusText: string;
  responseHeaders: [string, string][];
  bodyText: string;
  ms: number;
}

/**
 * What the console signs in with: a family's credentials (the body of its token call, which the client sends),
 * a token as it is (for a mock, which checks only that there is one), or the sandbox's admin token.
 */
export type Auth = { credentials: unknown } | { token: string } | { adminToken: string } | undefined;

export interface SendInput {
  family: string;
  baseUrl: string;
  auth: Auth;
  operationId: string;
  /** The family's token operation: the client's own calls to it are not the answer to show. */
  token?: { operationId: string; path: string };
  call: Call;
  takesBody: boolean;
  extraHeaders: Record<string, string>;
}

export type SendResult =
  | { ok: true; exchange: Exchange; tokenCalls: number }
  | { ok: false; message: string; tokenStatus?: number };

type AnyClient = Record<string, (init?: Record<string, unknown>) => Promise<{ response: Response }>>;

interface Recorded {
  client: AnyClient;
  exchanges: Exchange[];
}

const HIDDEN = 'Bearer (hidden: kept in this tab)';

function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestBody = request.body ? await request.clone().text() : undefined;
    const started = performance.now();
    const response = await fetch(request);
    const bodyText = await response.clone().text();
    exchanges.push({
      method: request.method,
      url: request.url,
      requestHeaders: [...request.headers].map(([k, v]) => [k, k === 'authorization' ? HIDDEN : v]),
      ...(requestBody === undefined ? {} : { requestBody }),
      status: response.status,
      statusText: response.statusText,
      responseHeaders: [...response.headers],
      bodyText,
      ms: performance.now() - started,
    });
    return response;
  };
}

/**
 * A cache, the page's one: a client per family, address and credentials, so its token is reused and renewed
 * across sends. It keeps the CLIENTS_KEPT last used; an older one is made again when needed.
 */
const clients = new Map<string, Recorded>();
const CLIENTS_KEPT = 16;

function clientFor(family: string, baseUrl: string, auth: Auth): Recorded {
  const key = JSON.stringify([family, baseUrl, auth]);
  const known = clients.get(key);
  if (known) {
    clients.delete(key);
    clients.set(key, known);
    return known;
  }
  if (clients.size >= CLIENTS_KEPT) clients.delete(clients.keys().next().value!);
  const exchanges: Exchange[] = [];
  const common = { baseUrl, fetch: recordingFetch(exchanges), retry: false as const, allowInsecureHttp: true };
  let client: unknown;
  const signIn = auth && !('adminToken' in auth) ? { auth } : {};
  if (family === 'business') client = createBusinessClient({ ...common, ...signIn } as never);
  else if (family === 'v1') client = createV1Client({ ...common, ...signIn } as never);
  else client = createSandboxClient({ ...common, ...(auth && 'adminToken' in auth ? auth : {}) });
  const recorded = { client: client as AnyClient, exchanges };
  clients.set(key, recorded);
  return recorded;
}

/** Why nothing could be read from `baseUrl`, in one line with what to do. */
async function unreachable(baseUrl: string): Promise<string> {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return `${baseUrl} is not an address: type one such as https://api.example.co, or the address the sandbox printed.`;
  }
  try {
    // An opaque answer says the server is there; only the browser's CORS rule kept the page from reading it.
    await fetch(origin, { mode: 'no-cors', cache: 'no-store' });
    return `${origin} answers but does not let this page read its answers (CORS): allow ${location.origin} there (Access-Control-Allow-Origin), or run the curl line below in a terminal.`;
  } catch {
    return `${origin} does not answer: start it (npm start starts the sandbox and both mocks), or check the address.`;
  }
}

export async function send(input: SendInput): Promise<SendResult> {
  let recorded: Recorded;
  try {
    recorded = clientFor(input.family, input.baseUrl, input.auth);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const { client, exchanges } = recorded;
  exchanges.length = 0;
  const method = client[input.operationId];
  if (typeof method !== 'function') return { ok: false, message: `The client has no ${input.operationId}.` };
  const params = { path: input.call.path, query: input.call.query, header: input.call.header };
  try {
    await method({
      params,
      ...(input.takesBody && input.call.body !== undefined ? { body: input.call.body } : {}),
      ...(Object.keys(input.extraHeaders).length ? { headers: input.extraHeaders } : {}),
    });
  } catch (error) {
    const answered = exchanges.filter((e) => !isTokenCall(e, input));
    if (answered.length === 0) {
      const status = (error as { status?: number }).status;
      if ((error as Error).name === 'TokenError')
        return {
          ok: false,
          message: `Signing in failed: ${(error as Error).message}`,
          ...(status === undefined ? {} : { tokenStatus: status }),
        };
      if ((error as Error).name === 'ConfigurationError') return { ok: false, message: (error as Error).message };
      return { ok: false, message: await unreachable(input.baseUrl) };
    }
  }
  const answered = exchanges.filter((e) => !isTokenCall(e, input));
  const exchange = answered.at(-1);
  if (!exchange) return { ok: false, message: await unreachable(input.baseUrl) };
  return { ok: true, exchange, tokenCalls: exchanges.length - answered.length };
}

function isTokenCall(exchange: Exchange, input: SendInput): boolean {
  if (!input.token || input.operationId === input.token.operationId) return false;
  return new URL(exchange.url).pathname === `${new URL(input.baseUrl).pathname.replace(/\/$/, '')}${input.token.path}`;
}
