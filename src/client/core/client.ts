// Builds a typed client for one API family: openapi-fetch's path-based calls plus one method per
// operationId, all going through the ramp transport.
import createClient from 'openapi-fetch';
import { checkBaseUrl } from './base-url.js';
import type { CallsOfPath, Middleware, PathCalls } from './calls.js';
import { type CredentialsOf, emptyCredentialsCause, emptyFields, refusedCredentialsCause } from './causes.js';
import { ApiError, ConfigurationError, TokenError } from './errors.js';
import { HTTP_METHODS, type OperationTable } from './operations.js';
import { redactText, redactValue, secretForms } from './redact.js';
import {
  type AuthOptions,
  createTokenSource,
  fixedTokenSource,
  readTokenFromBody,
  type TokenCacheOptions,
  type TokenSource,
} from './token.js';
import { checkMs, createTransport, type Logger, type RetryOptions, recordedCallOf } from './transport.js';

type Media = `${string}/${string}`;

/** Options shared by `createBusinessClient` and `createV1Client`. */
export interface RampClientOptions {
  /** Address of the deployment, e.g. `https://api.example.co`. Plain http is refused except on loopback. */
  baseUrl: string;
  /** How to authenticate. Without it, only the operations that need no token can be called. */
  auth?: AuthOptions;
  /**
   * Bound of each whole call in milliseconds: getting the token, every attempt, every backoff and Retry-After
   * wait, and reading the answer. A retry that cannot start before it is not started. Default 30000.
   */
  timeoutMs?: number;
  /** Retries of GET requests on network errors, 429 and 5xx; `false` turns them off. POST and DELETE are never retried. */
  retry?: RetryOptions | false;
  /** Largest answer body accepted, in bytes. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Allow plain http to a non-loopback host. Off by default. */
  allowInsecureHttp?: boolean;
  /**
   * The fetch implementation to use. Default: the global fetch. It is called as `fetch(url, init)`, or, once
   * middleware is added with `use`, with the Request the middleware saw.
   */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every call (never put the token here: use `auth`). */
  headers?: Record<string, string>;
  /** Receives one line per retry or token renewal; lines never contain tokens, credentials or bodies. */
  logger?: Logger;
}

/** One method per operationId, typed exactly like the matching path-based call. */
export type OperationMethods<
  Paths,
  Table extends Record<string, { readonly method: string; readonly path: string }>,
> = {
  [Id in keyof Table]: CallsOfPath<
    Paths[Table[Id]['path'] & keyof Paths] & Record<string | number, any>,
    Media
  >[Uppercase<Table[Id]['method']> &
    keyof CallsOfPath<Paths[Table[Id]['path'] & keyof Paths] & Record<string | number, any>, Media>];
};

export type RampClient<Paths extends {}, Table extends OperationTable> = PathCalls<Paths, Media> &
  OperationMethods<Paths, Table>;

interface FamilyConfig<Table extends OperationTable> {
  operations: Table;
  /** operationId of the family's token call. */
  tokenOperationId: keyof Table & string;
  defaultTokenLifetimeSeconds: number | null;
  /** The API whose credentials its token call takes, for the causes its errors name (none for the sandbox). */
  credentialsOf?: CredentialsOf;
}

const DEFAULT_RETRY: Required<RetryOptions> = {
  attempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

function retryOptions(retry: RetryOptions | false | undefined): Required<RetryOptions> | false {
  if (retry === false) return false;
  const merged = { ...DEFAULT_RETRY, ...retry };
  for (const key in DEFAULT_RETRY) checkMs(`retry.${key}`, merged[key as keyof RetryOptions], key === 'attempts');
  return merged;
}

/** The family's token call, as the client makes it, and where it goes (its full URL). */
interface TokenCall {
  (init: { body: unknown }): Promise<{ data?: unknown; response: Response }>;
  readonly url: string;
}

/**
 * The built-in token call: a call of the client like any other, unsecured, so it never waits for a token
 * itself, never retried (a POST), bounded by the client's timeout, and it follows no redirect: the credentials
 * go to baseUrl and nowhere else. Its error bodies are never kept and never shown, not even their error code:
 * the source shows no error body of the token calls, so nothing says a deployment's does not echo the
 * credentials, in a form the client cannot recognise. Its errors name the call, its URL and status, and the
 * likely cause (causes.ts), which says in the client's own words what a refusal's body would.
 */
function credentialsSource<Table extends OperationTable>(
  auth: Extract<AuthOptions, { credentials: unknown }>,
  family: FamilyConfig<Table>,
  tokenCall: TokenCall,
  cache: TokenCacheOptions,
): TokenSource {
  const { credentials } = auth;
  const read = auth.readToken ?? readTokenFromBody;
  // Only the sandbox's family has no credentials call, and its client's options have no `auth`.
  const api = family.credentialsOf!;
  const call = `The token call ${family.tokenOperationId} (POST ${tokenCall.url})`;
  return createTokenSource(async () => {
    const empty = emptyFields(credentials);
    if (empty.length === Object.keys(credentials ?? {}).length)
      throw new TokenError(`${call} was not sent: ${emptyCredentialsCause(api)}.`);
    let result: { data?: unknown; response: Response };
    try {
      result = await tokenCall({ body: credentials });
    } catch (cause) {
      throw new TokenError(`${call} failed: ${(cause as Error).message}`, {
        cause,
        status: (cause as { status?: number }).status,
      });
    }
    const { status } = result.response;
    if (!result.response.ok) {
      const why =
        status === 400 || status === 401 || status === 403
          ? refusedCredentialsCause(api, empty)
          : recordedCallOf(result.response)?.hint;
      throw new TokenError(`${call} failed with HTTP ${status}${why ? `: ${why}` : ''}.`, { status });
    }
    return read(result.data);
  }, cache);
}

function tokenSourceFor<Table extends OperationTable>(
  auth: AuthOptions | undefined,
  family: FamilyConfig<Table>,
  tokenCall: TokenCall,
  timeoutMs: number,
): TokenSource | undefined {
  if (auth === undefined) return undefined;
  const cache: TokenCacheOptions = {
    defaultLifetimeSeconds: family.defaultTokenLifetimeSeconds,
    grantTimeoutMs: timeoutMs,
  };
  if ('token' in auth) return fixedTokenSource(auth.token);
  if ('getToken' in auth) {
    if (typeof auth.getToken !== 'function') throw new ConfigurationError('`auth.getToken` must be a function.');
    const getToken = auth.getToken;
    return createTokenSource(async () => {
      try {
        return await getToken();
      } catch (cause) {
        throw new TokenError('The getToken function failed.', { cause });
      }
    }, cache);
  }
  if ('credentials' in auth) return credentialsSource(auth, family, tokenCall, cache);
  throw new ConfigurationError('`auth` must have `token`, `getToken` or `credentials`.');
}

export function createRampClient<Paths extends {}, Table extends OperationTable>(
  options: RampClientOptions,
  family: FamilyConfig<Table>,
): RampClient<Paths, Table> {
  if (!options || typeof options !== 'object')
    throw new ConfigurationError('Client options with `baseUrl` are required.');
  const baseUrl = checkBaseUrl(options.baseUrl, options.allowInsecureHttp);
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = checkMs('timeoutMs', options.timeoutMs ?? 30_000);
  const retry = retryOptions(options.retry);
  const transport = createTransport({
    baseUrl,
    fetch: baseFetch,
    operations: family.operations,
    tokenOperationId: family.tokenOperationId,
    // The token call goes through the transport too (below), on a client of its own: middleware added to the
    // caller's client never sees the credentials.
    token: tokenSourceFor(
      options.auth,
      family,
      Object.assign((init: { body: unknown }) => tokenCall(init), {
        url: baseUrl + family.operations[family.tokenOperationId]!.path,
      }),
      timeoutMs,
    ),
    timeoutMs,
    retry,
    maxResponseBytes: checkMs('maxResponseBytes', options.maxResponseBytes ?? 10 * 2 ** 20, true),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // Every call gives openapi-fetch a fetch of its own (the transport's), so the clients need none.
  const clientOptions = { baseUrl, ...(options.headers ? { headers: options.headers } : {}) };
  const client = createClient<Paths, Media>(clientOptions);
  const tokenClient = createClient(clientOptions);
  // Every call, by path or by operationId, runs through the transport's call: timeout, retries, 401 repeat.
  const invoke = client.request as unknown as Parameters<typeof transport.call>[0];
  let tokenCall: (init: Record<string, unknown>) => Promise<{ data?: unknown; response: Response }>;
  const byOperation: Record<string, unknown> = {
    ...client,
    use: (...added: Middleware[]) => {
      client.use(...(added as Parameters<typeof client.use>));
      transport.state.middleware = true;
    },
    request: (method: string, path: string, init?: Record<string, unknown>) =>
      transport.call(invoke, method.toUpperCase(), path, init),
  };
  for (const method of HTTP_METHODS.map((m) => m.toUpperCase())) {
    byOperation[method] = (path: string, init?: Record<string, unknown>) => transport.call(invoke, method, path, init);
  }
  for (const [operationId, spec] of Object.entries(family.operations)) {
    const method = spec.method.toUpperCase();
    const known = transport.operationAt(method, spec.path);
    byOperation[operationId] = (init?: Record<string, unknown>) =>
      transport.call(invoke, method, spec.path, init, known);
    if (operationId === family.tokenOperationId)
      tokenCall = (init) => transport.call(tokenClient.request as typeof invoke, method, spec.path, init, known);
  }
  return byOperation as RampClient<Paths, Table>;
}

type ResultLike =
  | { data: unknown; error?: never; response: Response }
  | { data?: never; error: unknown; response: Response };
/** The data of a call's success branch. */
export type SuccessData<R> = R extends { data: infer D; error?: never } ? D : never;
/** The union of the error bodies an operation documents. */
export type ErrorBody<R> = R extends { error: infer E; data?: never } ? E : never;

/**
 * The data of a successful result, or a thrown `ApiError` carrying operationId, method, path template,
 * status, the full URL called, the answer's headers and the parsed error body (typed as the operation's
 * documented error bodies). Tokens the call sent are redacted from all of it, in any form echoed.
 */
export function unwrap<R extends ResultLike>(result: R): SuccessData<R> {
  if (!result.response.ok) {
    const call = recordedCallOf(result.response);
    const info = call
      ? { operationId: call.operationId, method: call.method, path: call.path }
      : {
          operationId: null,
          method: 'UNKNOWN',
          path: result.response.url ? new URL(result.response.url).pathname : '',
        };
    const forms = secretForms(call?.token === undefined ? [] : [call.token]);
    const body = call?.sensitive ? undefined : redactValue(result.error, forms);
    const headers: Record<string, string> = {};
    result.response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = redactText(value, forms);
    });
    const status = result.response.status;
    const hint =
      status === 401 && call?.noAuth ? 'the client was created without `auth`, so no token was sent' : call?.hint;
    throw new ApiError<ErrorBody<R>>({
      ...info,
      status,
      body: body as ErrorBody<R>,
      url: redactText(call?.url ?? result.response.url, forms),
      headers,
      ...(hint ? { hint } : {}),
    });
  }
  return result.data as SuccessData<R>;
}

/** `unwrap` for a pending call: `const banks = await orThrow(api.listBanks())`. */
export async function orThrow<R extends ResultLike>(pending: Promise<R>): Promise<SuccessData<R>> {
  return unwrap(await pending);
}
