// The fetch function every client call goes through: bearer token, a timeout that bounds the whole call
// (token, attempts, waits), safe retries, one repeat after a 401, no redirects, and a body bounded after
// decompression. One function instead of a middleware stack, so a call builds no extra Request objects.
import { concatChunks } from './bytes.js';
import {
  ConfigurationError,
  NetworkError,
  RampApiError,
  RedirectError,
  ResponseFormatError,
  ResponseTooLargeError,
  TimeoutError,
  type CallInfo,
} from './errors.js';
import { createOperationMatcher, operationById, type MatchedOperation, type OperationTable } from './operations.js';
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
  /** operationIds whose bodies carry credentials or tokens (the token calls). */
  sensitiveOperationIds: readonly string[];
  token?: TokenSource;
  timeoutMs: number;
  retry: Required<RetryOptions> | false;
  maxResponseBytes: number;
  logger?: Logger;
  /** Test seam: how to wait between attempts (must end early, rejecting, when `signal` aborts). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Per-request options a caller may add to the init of any call. */
export interface PerRequestOptions {
  /** Overrides the client's timeout for this call: it bounds the whole call, token and retries included. */
  timeoutMs?: number;
}

/** What the transport remembers about a call, privately, for the errors raised from its result. */
export interface RecordedCall extends CallInfo {
  /** Tokens sent with the call: redacted from any error body that echoes them. */
  secrets: string[];
  /** A token call: its error body may carry credentials and is never kept. */
  sensitive: boolean;
  /** The full URL called. */
  url: string;
  /** A secured operation called by a client created without `auth`. */
  noAuth: boolean;
}

const callByResponse = new WeakMap<Response, RecordedCall>();

export function recordedCallOf(response: Response): RecordedCall | undefined {
  return callByResponse.get(response);
}

/** Key under which a by-operationId call passes its operationId through openapi-fetch to the transport. */
export const OPERATION_ID_KEY = 'rampOperationId';
/** Key under which the client passes the caller's own AbortSignal (openapi-fetch folds it into the Request). */
export const CALLER_SIGNAL_KEY = 'rampCallerSignal';

/** Marks an abort caused by the call's deadline, as opposed to one the caller asked for. */
class DeadlinePassed extends Error {}

/** The bound of one whole call: its deadline (timeoutMs from the start) and the caller's own signal. */
interface CallScope {
  /** Aborts at the deadline or when the caller aborts. */
  readonly signal: AbortSignal;
  /** Milliseconds left until the deadline. */
  remaining(): number;
  /** `promise`, unless the call ends first (then the abort reason). */
  within<T>(promise: Promise<T>): Promise<T>;
  /** Removes the timer and the listener on the caller's signal. */
  release(): void;
}

function callScope(timeoutMs: number, callerSignal: AbortSignal | undefined): CallScope {
  if (callerSignal?.aborted) throw callerSignal.reason;
  const controller = new AbortController();
  const deadline = Date.now() + timeoutMs;
  const timer = setTimeout(() => controller.abort(new DeadlinePassed()), timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal!.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = controller.signal;
  return {
    signal,
    remaining: () => deadline - Date.now(),
    within: (promise) =>
      signal.aborted
        ? Promise.reject(signal.reason)
        : new Promise((resolve, reject) => {
            const onAbort = () => reject(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            promise.then(
              (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
              (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
            );
          }),
    release() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

const RETRYABLE_METHODS = new Set(['GET', 'HEAD']);
const RETRYABLE_STATUS = (status: number) => status === 429 || (status >= 500 && status <= 599);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Milliseconds to wait from a Retry-After header (seconds or HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Where a redirect pointed, as origin and path (a query may carry someone's secrets), or null. */
function redirectTarget(response: Response, requestUrl: string): string | null {
  const location = response.headers.get('location');
  if (!location) return null;
  try {
    const url = new URL(location, requestUrl);
    return url.origin + url.pathname;
  } catch {
    return null;
  }
}

const BODY_READERS = ['text', 'json', 'arrayBuffer', 'blob'] as const;

/** Makes the body readers of `response` throw named errors. */
function guardBody(response: Response, named: (error: unknown) => unknown): void {
  for (const reader of BODY_READERS) {
    const read = response[reader] as () => Promise<unknown>;
    Object.defineProperty(response, reader, {
      configurable: true,
      value: () =>
        read.call(response).catch((error: unknown) => {
          throw named(error);
        }),
    });
  }
}

/** Runs `done` once the body of `response` has been read or has failed (or at once when it has none). */
function releaseAfterRead(response: Response, done: () => void): void {
  if (!response.body || response.status === 204 || response.headers.get('content-length') === '0') return done();
  for (const reader of BODY_READERS) {
    const read = response[reader] as () => Promise<unknown>;
    Object.defineProperty(response, reader, {
      configurable: true,
      value: () => read.call(response).finally(done),
    });
  }
}

class ResponseTooLarge extends Error {
  constructor(limit: number) {
    super(`response body exceeds ${limit} bytes`);
  }
}

async function readBody(response: Response, limit: number): Promise<Uint8Array | ArrayBuffer | null> {
  if (!response.body) return null;
  const length = response.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > limit) {
    await response.body.cancel().catch(() => {});
    throw new ResponseTooLarge(limit);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLarge(limit);
    }
    chunks.push(value);
  }
  return concatChunks(chunks, size);
}

/** The largest delay a timer can hold; longer ones fire at once (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timeout or delay a caller gave: a positive number a timer can hold, or a ConfigurationError. */
export function checkMs(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new ConfigurationError(`\`${name}\` must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(value)}`);
  }
  return value;
}

export function createTransport(options: TransportOptions): (input: Request | string | URL, init?: RequestInit) => Promise<Response> {
  const baseFetch = options.fetch;
  const sleep = options.sleep ?? defaultSleep;
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  const match = createOperationMatcher(options.operations, basePath);

  const backoff = (attempt: number): number => {
    if (!options.retry) return 0;
    const ceiling = Math.min(options.retry.maxDelayMs, options.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  };

  /**
   * One attempt: the answer, with its body read (bounded) unless it can be handed on as it is; or a thrown
   * named error. `handOn` receives the scope's release when the body is left for the caller to read.
   */
  async function attempt(request: Request, op: MatchedOperation, scope: CallScope, named: (error: unknown, status?: number) => unknown, mayRetry: boolean): Promise<{ response: Response; unread: boolean }> {
    let response: Response;
    try {
      // Redirects are never followed: a body, a credential or a token goes only where the caller sent it.
      response = await baseFetch(request, { signal: scope.signal, redirect: 'manual' });
    } catch (error) {
      throw named(error);
    }
    const status = response.status;
    const length = response.headers.get('content-length');
    const encoding = response.headers.get('content-encoding');
    if (!mayRetry && length !== null && Number(length) <= options.maxResponseBytes && (encoding === null || encoding === 'identity')) {
      // No retry left, an uncompressed body of a declared length within the limit: hand the answer on as it is
      // (a new Response costs a new stream). The call's signal stays armed while the caller reads the body.
      // A compressed body is always counted here, after decompression: its declared length says nothing.
      guardBody(response, (error) => named(error, status));
      return { response, unread: true };
    }
    let body: Uint8Array | ArrayBuffer | null;
    try {
      body = await readBody(response, options.maxResponseBytes);
    } catch (error) {
      throw named(error, status);
    }
    // Declare the length so that openapi-fetch parses through json(), which the guard names on failure.
    const headers = new Headers(response.headers);
    headers.delete('content-encoding');
    if (body) headers.set('content-length', String(body.byteLength));
    const buffered = new Response(body as BodyInit | null, { status, statusText: response.statusText, headers });
    guardBody(buffered, (error) => named(error, status));
    return { response: buffered, unread: false };
  }

  return async function rampFetch(input, init) {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const extras = request as Request & { [OPERATION_ID_KEY]?: string; [CALLER_SIGNAL_KEY]?: AbortSignal } & PerRequestOptions;
    const callerSignal = extras[CALLER_SIGNAL_KEY];
    const method = request.method;
    const op =
      (extras[OPERATION_ID_KEY] && operationById(options.operations, extras[OPERATION_ID_KEY], method)) ||
      match(method, new URL(request.url).pathname);
    const timeoutMs = extras.timeoutMs === undefined ? options.timeoutMs : checkMs('timeoutMs', extras.timeoutMs);
    const token = op.secured ? options.token : undefined;
    const retryable = options.retry !== false && RETRYABLE_METHODS.has(method);
    const maxAttempts = retryable && options.retry ? options.retry.attempts : 1;
    const host = new URL(request.url).host;

    const scope = callScope(timeoutMs, callerSignal);
    let attemptNo = 1;
    /** The named error for a failure: the caller's abort reason, a timeout, or what went wrong. */
    const named = (error: unknown, status = 0): unknown => {
      if (callerSignal?.aborted) return callerSignal.reason;
      if (error instanceof RampApiError) return error;
      if (scope.signal.aborted) return new TimeoutError({ ...op, timeoutMs });
      if (error instanceof ResponseTooLarge) return new ResponseTooLargeError({ ...op, limit: options.maxResponseBytes });
      if (error instanceof SyntaxError) return new ResponseFormatError({ ...op, status });
      return new NetworkError({ ...op, attempts: attemptNo, host, cause: error });
    };
    /** Waits `ms` before a retry, or says no when the wait would end past the deadline. */
    const pause = async (ms: number): Promise<boolean> => {
      if (ms >= scope.remaining()) return false;
      await sleep(ms, scope.signal);
      return true;
    };
    const what = op.operationId ?? op.path;
    let handedOn = false;
    try {
      // A body can be sent once; keep a copy only when the request may have to be repeated after a 401.
      let spare = token?.renewable && request.body !== null ? request.clone() : undefined;
      let current = request;
      let sentToken: string | undefined;
      if (token) {
        sentToken = token.peek() ?? (await scope.within(token.get()));
        current.headers.set('authorization', `Bearer ${sentToken}`);
      }

      let repeatedAfter401 = false;
      for (; ; attemptNo++) {
        let outcome: { response: Response; unread: boolean };
        try {
          outcome = await attempt(current, op, scope, named, retryable && attemptNo < maxAttempts);
        } catch (error) {
          if (error instanceof NetworkError && attemptNo < maxAttempts) {
            const delay = backoff(attemptNo);
            if (await pause(delay)) {
              options.logger?.warn(`${what}: no answer (attempt ${attemptNo}/${maxAttempts}); retried after ${delay} ms`);
              continue;
            }
          }
          throw error;
        }
        const { response } = outcome;

        if (REDIRECT_STATUS.has(response.status)) {
          await response.body?.cancel().catch(() => {});
          throw new RedirectError({ ...op, status: response.status, location: redirectTarget(response, current.url) });
        }

        if (response.status === 401 && token?.renewable && sentToken !== undefined && !repeatedAfter401) {
          // The service refused the token before doing anything: renew it and repeat this request once.
          await response.body?.cancel().catch(() => {});
          repeatedAfter401 = true;
          token.invalidate(sentToken);
          sentToken = await scope.within(token.get());
          if (spare) {
            current = spare;
            spare = undefined;
          }
          current.headers.set('authorization', `Bearer ${sentToken}`);
          options.logger?.warn(`${what}: token refused (401); repeating once with a new token`);
          attemptNo--; // the repeat does not use up a retry attempt
          continue;
        }

        if (retryable && options.retry && RETRYABLE_STATUS(response.status) && attemptNo < maxAttempts) {
          const hinted = retryAfterMs(response.headers.get('retry-after'));
          if (hinted === undefined || hinted <= options.retry.maxRetryAfterMs) {
            const delay = hinted ?? backoff(attemptNo);
            if (await pause(delay)) {
              options.logger?.warn(`${what}: HTTP ${response.status} (attempt ${attemptNo}/${maxAttempts}); retried after ${delay} ms`);
              continue;
            }
          }
        }

        callByResponse.set(response, {
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          url: current.url,
          secrets: sentToken === undefined ? [] : [sentToken],
          sensitive: op.operationId !== null && options.sensitiveOperationIds.includes(op.operationId),
          noAuth: op.secured && options.token === undefined,
        });
        if (outcome.unread) {
          // The caller reads the body: keep the deadline armed until then.
          handedOn = true;
          releaseAfterRead(response, scope.release);
        }
        return response;
      }
    } catch (error) {
      throw named(error);
    } finally {
      if (!handedOn) scope.release();
    }
  };
}
