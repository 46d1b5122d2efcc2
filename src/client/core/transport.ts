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
import { type Attempt, ResponseTooLarge, send } from './send.js';
import { type Deadline, sleep, startDeadline, within } from './signals.js';
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

/** One call in progress: its attempt context, how it was asked for, and its bound. */
interface Run {
  readonly context: Attempt;
  readonly callerSignal: AbortSignal | undefined;
  readonly started: number;
  readonly timeoutMs: number;
  attempt: number;
}

const RETRYABLE_STATUS = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** The largest delay a timer can hold; longer ones fire at once (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
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

/**
 * The init openapi-fetch gets for one call: the caller's, with the call's own fetch, which carries the call's
 * context. The caller's signal is left out: the call's signal (the caller's and the deadline combined) goes
 * to the fetch itself.
 */
function initFor(init: Record<string, unknown> | undefined, context: Attempt): Record<string, unknown> {
  const callInit: Record<string, unknown> = {};
  // Copied key by key: object spread of the caller's init measured slower here (V8 20).
  for (const key in init) callInit[key] = init[key];
  callInit.signal = undefined;
  callInit.fetch = (request: Request) => send(request, context);
  return callInit;
}

export function createTransport(options: TransportOptions) {
  const { retry, token, logger } = options;
  const limit = options.maxResponseBytes;
  const base = new URL(options.baseUrl);
  const prefix = sharedPrefix(Object.values(options.operations).map((spec) => spec.path));
  const operations = operationIndex(options.operations, options.tokenOperationId);
  // A path the description does not document is still guarded, and secured unless known otherwise.
  const operationAt = (method: string, path: string): KnownOperation =>
    operations.get(`${method} ${path}`) ?? { operationId: null, secured: true, parameters: parametersOf(path) };

  /** `middleware`: the client's `use` was called, so a call may be held outside its fetch (see `attempts`). */
  const state = { middleware: false };

  const backoff = (attempt: number): number => {
    if (!retry) return 0;
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  };

  /** Waits `ms` before a retry and logs it, or says no when the wait would end past the call's deadline. */
  async function pause(ms: number, reason: string, run: Run): Promise<boolean> {
    if (ms >= run.timeoutMs - (Date.now() - run.started)) return false;
    await sleep(ms, run.context.signal);
    logger?.warn(`${run.context.operationId ?? run.context.path}: ${reason}; retried after ${ms} ms`);
    return true;
  }

  /** The named error for a failure: the caller's abort reason, a timeout, or what went wrong. */
  function named(error: unknown, run: Run): unknown {
    if (run.callerSignal?.aborted) return run.callerSignal.reason;
    const { context } = run;
    const info = callInfo(context);
    // Past the deadline, a token source's own failure to answer in time is this call's timeout.
    const late = context.signal.aborted || (error instanceof TokenError && Date.now() - run.started >= run.timeoutMs);
    if (late) return new TimeoutError({ ...info, timeoutMs: run.timeoutMs });
    if (error instanceof RampApiError) return error;
    if (error instanceof ResponseTooLarge) return new ResponseTooLargeError({ ...info, limit });
    if (error instanceof SyntaxError) return new ResponseFormatError({ ...info, status: context.status });
    return new NetworkError({ ...info, attempts: run.attempt, host: base.host, cause: error });
  }

  /**
   * The attempts of one call (retries of a safe request, the repeat after a 401) under its deadline; the result
   * to return, or the named error.
   */
  async function attempts(
    invoke: Invoke,
    init: CallInit | undefined,
    op: KnownOperation,
    run: Run,
    deadline: Deadline,
  ) {
    const { context } = run;
    const { method, path } = context;
    const callInit = initFor(init, context);
    const source = op.secured ? token : undefined;
    const maxAttempts = retry && (method === 'GET' || method === 'HEAD') ? retry.attempts : 1;
    let repeatedAfter401 = false;
    let streaming = false;
    try {
      for (; ; run.attempt++) {
        if (source) context.token = source.peek() ?? (await within(source.get(), context.signal));
        let result: { response: Response };
        try {
          const pending = invoke(method, path, callInit);
          // Middleware may hold the call before or after its fetch: the deadline bounds it there too.
          const held = state.middleware || callInit.middleware !== undefined;
          result = await (held ? within(pending, context.signal) : pending);
        } catch (error) {
          const failure = named(error, run);
          const retried =
            failure instanceof NetworkError &&
            run.attempt < maxAttempts &&
            (await pause(backoff(run.attempt), `no answer (attempt ${run.attempt}/${maxAttempts})`, run));
          if (retried) continue;
          throw failure;
        }
        const status = result.response.status;
        if (status === 401 && source?.renewable && !repeatedAfter401) {
          // The service refused the token before doing anything: renew it and repeat this request once.
          repeatedAfter401 = true;
          source.invalidate(context.token!);
          logger?.warn(`${context.operationId ?? path}: HTTP 401; repeating once with a new token`);
          run.attempt--; // the repeat does not use up a retry attempt
          continue;
        }
        if (run.attempt < maxAttempts && retry && RETRYABLE_STATUS(status)) {
          const hinted = retryAfterMs(result.response.headers.get('retry-after'));
          const waited =
            (hinted === undefined || hinted <= retry.maxRetryAfterMs) &&
            (await pause(
              hinted ?? backoff(run.attempt),
              `HTTP ${status} (attempt ${run.attempt}/${maxAttempts})`,
              run,
            ));
          if (waited) continue;
        }
        // Only a failed call's result is ever unwrapped into an ApiError, which needs what the call was.
        if (!result.response.ok) record(result.response, context, op);
        // A streamed answer is read after this returns: the deadline keeps bounding it.
        streaming = init?.parseAs === 'stream';
        return result;
      }
    } catch (error) {
      throw named(error, run);
    } finally {
      if (streaming) deadline.timer.unref?.();
      else clearTimeout(deadline.timer);
    }
  }

  function record(response: Response, context: Attempt, op: KnownOperation): void {
    const { status } = response;
    const recorded: RecordedCall = {
      ...callInfo(context),
      token: context.token,
      sensitive: op.sensitive === true,
      url: context.url,
      noAuth: op.secured && token === undefined,
      hint: status === 404 || status === 405 ? baseUrlCause(options.baseUrl, prefix) : undefined,
    };
    Reflect.defineProperty(response, RECORDED, { value: recorded });
  }

  /**
   * Runs one call through `invoke` (openapi-fetch), with its retries, 401 repeat and whole-call bound. What is
   * wrong with the call itself (a path parameter, a timeout, an aborted signal) rejects before anything starts.
   */
  function call(
    invoke: Invoke,
    method: string,
    path: string,
    init: CallInit | undefined,
    known?: KnownOperation,
  ): Promise<{ response: Response }> {
    const op = known ?? operationAt(method, path);
    const { operationId } = op;
    let timeoutMs = options.timeoutMs;
    let callerSignal: AbortSignal | undefined;
    try {
      const problem = pathProblem(op.parameters, init);
      if (problem) throw new ParameterError({ operationId, method, path, ...problem });
      if (init?.timeoutMs !== undefined) timeoutMs = checkMs('timeoutMs', init.timeoutMs);
      callerSignal = init?.signal as AbortSignal | undefined;
      if (callerSignal?.aborted) throw callerSignal.reason;
    } catch (error) {
      return Promise.reject(error);
    }
    const deadline = startDeadline(timeoutMs, callerSignal);
    const context: Attempt = {
      operationId,
      method,
      path,
      // One call's own `fetch` is the one that sends, still with the call's token, signal and bounds.
      fetch: (init?.fetch as typeof globalThis.fetch | undefined) ?? options.fetch,
      signal: deadline.signal,
      limit,
      token: undefined,
      url: '',
      status: 0,
    };
    const run: Run = { context, callerSignal, started: Date.now(), timeoutMs, attempt: 1 };
    return attempts(invoke, init, op, run, deadline);
  }

  return { call, operationAt, state };
}
