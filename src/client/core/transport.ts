// How every client call runs: a wrapper around one openapi-fetch call adds the whole-call deadline, the token,
// retries of safe requests and the one repeat after a 401. Each call carries its own context (token, signal,
// the URL called) to the fetch it gives openapi-fetch (see send.ts); nothing is shared between calls or clients
// but the client's options and its token cache.

import { baseUrlCause, sharedPrefix } from './causes.js';
import {
  type CallInfo,
  ConfigurationError,
  NetworkError,
  ParameterError,
  RampApiError,
  ResponseFormatError,
  ResponseTooLargeError,
  TimeoutError,
  TokenError,
} from './errors.js';
import type { OperationTable } from './operations.js';
import { type Attempt, CallRequest, ResponseTooLarge, send } from './send.js';
import { sleep, startDeadline, within } from './signals.js';
import type { TokenSource } from './token.js';

export interface RetryOptions {
  /** Total attempts for a retryable request, the first included. Default 3. */
  attempts?: number;
  /** First backoff delay; doubles each time, with jitter. Default 300 ms. */
  baseDelayMs?: number;
  /** Longest backoff delay. Default 5000 ms. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the response is returned instead. Default 30000 ms. */
  maxRetryAfterMs?: number;
}

export interface Logger {
  warn(message: string): void;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  operations: OperationTable;
  /** operationId of the token call: its bodies carry credentials or tokens. */
  tokenOperationId: string;
  token?: TokenSource;
  timeoutMs: number;
  retry: Required<RetryOptions> | false;
  maxResponseBytes: number;
  logger?: Logger;
}

/** Per-request options a caller may add to the init of any call. */
export interface PerRequestOptions {
  /** Overrides the client's timeout for this call: it bounds the whole call, token and retries included. */
  timeoutMs?: number;
}

/** What a failed call's Response carries, privately, for the errors raised from its result. */
export interface RecordedCall extends CallInfo {
  /** The token sent with the call: redacted from any error body that echoes it. */
  token: string | undefined;
  /** A token call: its error body may carry credentials and is never kept. */
  sensitive: boolean;
  /** The full URL called. */
  url: string;
  /** A secured operation called by a client created without `auth`. */
  noAuth: boolean;
  /** The likely cause of a 404 or 405 when `baseUrl` has a path of its own (see causes.ts). */
  hint: string | undefined;
}

/** The key under which a failed call's Response carries its RecordedCall (not enumerable). */
const RECORDED = Symbol('ramp-api call');

export function recordedCallOf(response: Response): RecordedCall | undefined {
  return (response as { [RECORDED]?: RecordedCall })[RECORDED];
}

/** One call in progress: what its fetch needs (Attempt), how it was asked for, and its bound. */
interface Run extends Attempt {
  readonly op: KnownOperation;
  readonly callerSignal: AbortSignal | undefined;
  /** Aborts the call's signal at its deadline. */
  readonly timer: ReturnType<typeof setTimeout>;
  readonly started: number;
  readonly timeoutMs: number;
  /** Attempts allowed: several for a safe request when retries are on, else one (the 401 repeat aside). */
  readonly maxAttempts: number;
  attempt: number;
  /** The request was repeated after a 401: it is not repeated again. */
  repeated: boolean;
}

const RETRYABLE_STATUS = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** The largest delay a timer can hold; longer ones fire at once (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A timeout or delay a caller gave, a positive number a timer can hold; or with `count`, a positive whole
 * number (attempts, bytes). Anything else is a ConfigurationError.
 */
export function checkMs(name: string, value: unknown, count = false): number {
  if (typeof value !== 'number' || !(value > 0) || (count ? !Number.isSafeInteger(value) : value > MAX_TIMER_MS)) {
    throw new ConfigurationError(
      `\`${name}\` must be ${count ? 'a whole number' : `milliseconds up to ${MAX_TIMER_MS}`} above 0, got ${String(value)}`,
    );
  }
  return value;
}

/** Milliseconds to wait from a Retry-After header (seconds or HTTP date); undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Only what an error may say about a call: never the context's token, signal or URL. */
const callInfo = ({ operationId, method, path }: CallInfo): CallInfo => ({ operationId, method, path });

/** The names of a path template's parameters: `/api/{clientId}/x` gives `clientId`. */
const parametersOf = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

/** What is wrong with a path parameter that is missing or would change the path called; undefined when none. */
function pathProblem(
  parameters: readonly string[],
  init: Record<string, unknown> | undefined,
): { parameter: string; problem: string } | undefined {
  if (parameters.length === 0) return undefined;
  const values = (init?.params as { path?: Record<string, unknown> } | undefined)?.path ?? {};
  for (const parameter of parameters) {
    const value = values[parameter];
    if (value === undefined || value === null) return { parameter, problem: 'is missing' };
    const text = String(value);
    if (text === '' || text === '.' || text === '..') {
      return { parameter, problem: `is ${JSON.stringify(text)}: it would change the path called` };
    }
  }
  return undefined;
}

/** A documented operation (or an undocumented path) as the transport needs it. */
export interface KnownOperation {
  operationId: string | null;
  secured: boolean;
  /** Its bodies carry credentials or tokens (the token calls). */
  sensitive?: boolean;
  /** The names of its path parameters. */
  parameters: string[];
}

/** The init a caller gives one call: openapi-fetch's, with the client's per-request options. */
type CallInit = Record<string, unknown> & PerRequestOptions;

/** openapi-fetch's generic call: method, path template, init. */
type Invoke = (
  method: string,
  path: string,
  init: Record<string, unknown> | undefined,
) => Promise<{ response: Response }>;

/** Each documented operation by `METHOD path`. */
function operationIndex(operations: OperationTable, tokenOperationId: string): ReadonlyMap<string, KnownOperation> {
  const index = new Map<string, KnownOperation>();
  for (const [operationId, spec] of Object.entries(operations)) {
    index.set(`${spec.method.toUpperCase()} ${spec.path}`, {
      operationId,
      secured: spec.secured,
      sensitive: operationId === tokenOperationId,
      parameters: parametersOf(spec.path),
    });
  }
  return index;
}

/** What a transport holds: its options and what is derived from them once, and whether `use` was called. */
interface Setup extends TransportOptions {
  readonly host: string;
  /** The path every operation's path starts with (see causes.ts). */
  readonly prefix: string;
  readonly known: ReadonlyMap<string, KnownOperation>;
  /** `middleware`: the client's `use` was called, so a call may be held outside its fetch (see `attempt`). */
  readonly state: { middleware: boolean };
}

/**
 * The init openapi-fetch gets for one call: the caller's, with the call's own fetch, which carries the call's
 * context. The caller's signal is left out: the call's signal (the caller's and the deadline combined) goes
 * to the fetch itself.
 */
function initFor(init: Record<string, unknown> | undefined, context: Attempt): Record<string, unknown> {
  return { ...init, signal: undefined, fetch: (request: Request | CallRequest) => send(request, context) };
}

function backoff(retry: Required<RetryOptions> | false, attempt: number): number {
  if (!retry) return 0;
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** Waits `ms` before a retry and logs it, or says no when the wait would end past the call's deadline. */
async function pause(setup: Setup, ms: number, reason: string, run: Run): Promise<boolean> {
  if (ms >= run.timeoutMs - (Date.now() - run.started)) return false;
  await sleep(ms, run.signal);
  setup.logger?.warn(`${run.operationId ?? run.path}: ${reason}; retried after ${ms} ms`);
  return true;
}

/** The named error for a failure: the caller's abort reason, a timeout, or what went wrong. */
function named(setup: Setup, error: unknown, run: Run): unknown {
  if (run.callerSignal?.aborted) return run.callerSignal.reason;
  const info = callInfo(run);
  // Past the deadline, a token source's own failure to answer in time is this call's timeout.
  const late = run.signal.aborted || (error instanceof TokenError && Date.now() - run.started >= run.timeoutMs);
  if (late) return new TimeoutError({ ...info, timeoutMs: run.timeoutMs });
  if (error instanceof RampApiError) return error;
  if (error instanceof ResponseTooLarge) return new ResponseTooLargeError({ ...info, limit: setup.maxResponseBytes });
  if (error instanceof SyntaxError) return new ResponseFormatError({ ...info, status: run.status });
  return new NetworkError({ ...info, attempts: run.attempt, host: setup.host, cause: error });
}

/** Gives a failed call's Response what the errors raised from its result need to say (see `recordedCallOf`). */
function record(setup: Setup, response: Response, run: Run): void {
  const { op } = run;
  const { status } = response;
  const recorded: RecordedCall = {
    ...callInfo(run),
    token: run.token,
    sensitive: op.sensitive === true,
    url: run.url,
    noAuth: op.secured && setup.token === undefined,
    hint: status === 404 || status === 405 ? baseUrlCause(setup.baseUrl, setup.prefix) : undefined,
  };
  Reflect.defineProperty(response, RECORDED, { value: recorded });
}

/**
 * One attempt's result, or its named error; undefined when a safe request met a network error and is retried
 * (when time allows).
 */
async function attempt(
  setup: Setup,
  invoke: Invoke,
  callInit: Record<string, unknown>,
  run: Run,
): Promise<{ response: Response } | undefined> {
  const source = run.op.secured ? setup.token : undefined;
  // Awaited even when the token is at hand: calls started together are then all prepared before the first is
  // sent, and a server on another core gets them sooner (see the client's concurrent rows in BENCHMARKS.md).
  if (source) run.token = await (source.peek() ?? within(source.get(), run.signal));
  // Middleware sees a Request, and may hold the call before or after its fetch: the deadline bounds it there
  // too. Without middleware, openapi-fetch builds a CallRequest, and the fetch builds the call's only Request.
  const held = setup.state.middleware || callInit.middleware !== undefined;
  callInit.Request = held ? undefined : CallRequest;
  try {
    const pending = invoke(run.method, run.path, callInit);
    return await (held ? within(pending, run.signal) : pending);
  } catch (error) {
    const failure = named(setup, error, run);
    const retried =
      failure instanceof NetworkError &&
      run.attempt < run.maxAttempts &&
      (await pause(setup, backoff(setup.retry, run.attempt), `no answer (${attemptOf(run)})`, run));
    if (retried) return undefined;
    throw failure;
  }
}

const attemptOf = (run: Run) => `attempt ${run.attempt}/${run.maxAttempts}`;

/**
 * Whether an answer is repeated (once after a 401, with a new token) or retried (a 429 or 5xx of a safe
 * request, after its Retry-After or a backoff, when time allows); false when it is the call's result.
 */
async function again(setup: Setup, response: Response, run: Run): Promise<boolean> {
  const { status } = response;
  const { retry, token } = setup;
  if (status === 401 && run.op.secured && token?.renewable && !run.repeated) {
    // The service refused the token before doing anything: renew it and repeat this request once.
    token.invalidate(run.token!);
    setup.logger?.warn(`${run.operationId ?? run.path}: HTTP 401; repeating once with a new token`);
    run.repeated = true;
    run.attempt--; // the repeat does not use up a retry attempt
    return true;
  }
  if (!retry || run.attempt >= run.maxAttempts || !RETRYABLE_STATUS(status)) return false;
  const hinted = retryAfterMs(response.headers.get('retry-after'));
  if (hinted !== undefined && hinted > retry.maxRetryAfterMs) return false;
  return pause(setup, hinted ?? backoff(retry, run.attempt), `HTTP ${status} (${attemptOf(run)})`, run);
}

/** The attempts of one call under its deadline: the result to return, or the named error. */
async function attempts(setup: Setup, invoke: Invoke, init: CallInit | undefined, run: Run) {
  const callInit = initFor(init, run);
  // A streamed answer is read after this returns: the deadline keeps bounding it.
  let streaming = false;
  try {
    for (; ; run.attempt++) {
      const result = await attempt(setup, invoke, callInit, run);
      if (!result || (await again(setup, result.response, run))) continue;
      // Only a failed call's result is ever unwrapped into an ApiError, which needs what the call was.
      if (!result.response.ok) record(setup, result.response, run);
      streaming = init?.parseAs === 'stream';
      return result;
    }
  } catch (error) {
    throw named(setup, error, run);
  } finally {
    if (streaming) run.timer.unref?.();
    else clearTimeout(run.timer);
  }
}

/**
 * Runs one call through `invoke` (openapi-fetch), with its retries, 401 repeat and whole-call bound. What is
 * wrong with the call itself (a path parameter, a timeout, an aborted signal) rejects before anything starts.
 */
function call(
  setup: Setup,
  invoke: Invoke,
  method: string,
  path: string,
  init: CallInit | undefined,
  op: KnownOperation,
): Promise<{ response: Response }> {
  let timeoutMs = setup.timeoutMs;
  let callerSignal: AbortSignal | undefined;
  try {
    const problem = pathProblem(op.parameters, init);
    if (problem) throw new ParameterError({ operationId: op.operationId, method, path, ...problem });
    if (init?.timeoutMs !== undefined) timeoutMs = checkMs('timeoutMs', init.timeoutMs);
    callerSignal = init?.signal as AbortSignal | undefined;
    if (callerSignal?.aborted) throw callerSignal.reason;
  } catch (error) {
    return Promise.reject(error);
  }
  const { retry } = setup;
  const maxAttempts = retry && (method === 'GET' || method === 'HEAD') ? retry.attempts : 1;
  // The repeat after a 401 is one attempt more.
  const { signal, timer } = startDeadline(timeoutMs, callerSignal, maxAttempts + 1);
  return attempts(setup, invoke, init, {
    operationId: op.operationId,
    method,
    path,
    // One call's own `fetch` is the one that sends, still with the call's token, signal and bounds.
    fetch: (init?.fetch as typeof globalThis.fetch | undefined) ?? setup.fetch,
    signal,
    limit: setup.maxResponseBytes,
    token: undefined,
    url: '',
    status: 0,
    op,
    callerSignal,
    timer,
    started: Date.now(),
    timeoutMs,
    maxAttempts,
    attempt: 1,
    repeated: false,
  });
}

export function createTransport(options: TransportOptions) {
  const known = operationIndex(options.operations, options.tokenOperationId);
  const setup: Setup = {
    ...options,
    host: new URL(options.baseUrl).host,
    prefix: sharedPrefix(Object.values(options.operations).map((spec) => spec.path)),
    known,
    state: { middleware: false },
  };
  // A path the description does not document is still guarded, and secured unless known otherwise.
  const operationAt = (method: string, path: string): KnownOperation =>
    known.get(`${method} ${path}`) ?? { operationId: null, secured: true, parameters: parametersOf(path) };
  return {
    call: (invoke: Invoke, method: string, path: string, init: CallInit | undefined, op?: KnownOperation) =>
      call(setup, invoke, method, path, init, op ?? operationAt(method, path)),
    operationAt,
    state: setup.state,
  };
}
