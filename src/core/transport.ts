// The fetch function every client call goes through: bearer token, per-request timeout, safe retries,
// one repeat after a 401, and a bounded, buffered body. One function instead of a middleware stack, so a
// call builds no extra Request objects on the happy path.
import { concatChunks } from './bytes.js';
import { NetworkError, ResponseFormatError, ResponseTooLargeError, TimeoutError, type CallInfo } from './errors.js';
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
  /** Test seam: how to wait between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

/** Per-request options a caller may add to the init of any call. */
export interface PerRequestOptions {
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}

/** What the transport remembers about a call, privately, for the errors raised from its result. */
export interface RecordedCall extends CallInfo {
  /** Tokens sent with the call: redacted from any error body that echoes them. */
  secrets: string[];
  /** A token call: its error body may carry credentials and is never kept. */
  sensitive: boolean;
}

const callByResponse = new WeakMap<Response, RecordedCall>();

export function recordedCallOf(response: Response): RecordedCall | undefined {
  return callByResponse.get(response);
}

/** Key under which a by-operationId call passes its operationId through openapi-fetch to the transport. */
export const OPERATION_ID_KEY = 'rampOperationId';
/** Key under which the client passes the caller's own AbortSignal (openapi-fetch folds it into the Request). */
export const CALLER_SIGNAL_KEY = 'rampCallerSignal';

/** Marks an abort caused by a timeout, as opposed to one the caller asked for. */
class DeadlinePassed extends Error {}

/**
 * Timeouts share one AbortController per deadline slot of SLOT_MS instead of one per call: creating an
 * AbortSignal is the largest single cost of a call (measured with --cpu-prof). A slot fires when its latest
 * deadline has passed, so a call is aborted at most SLOT_MS after its own deadline, never before.
 */
const SLOT_MS = 50;
const slots = new Map<number, AbortSignal>();
function deadlineSignal(timeoutMs: number): AbortSignal {
  const slot = Math.ceil((Date.now() + timeoutMs) / SLOT_MS) * SLOT_MS;
  let signal = slots.get(slot);
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    slots.set(slot, signal);
    const timer = setTimeout(() => {
      slots.delete(slot);
      controller.abort(new DeadlinePassed());
    }, slot - Date.now());
    timer.unref?.();
  }
  return signal;
}

const RETRYABLE_METHODS = new Set(['GET', 'HEAD']);
const RETRYABLE_STATUS = (status: number) => status === 429 || (status >= 500 && status <= 599);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds to wait from a Retry-After header (seconds or HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const BODY_READERS = ['text', 'json', 'arrayBuffer', 'blob'] as const;

/** Makes the body readers of `response` throw named errors, and runs `done` once the body is read or failed. */
function guardBody(response: Response, named: (error: unknown) => unknown, done: (() => void) | undefined): void {
  for (const reader of BODY_READERS) {
    const read = response[reader] as () => Promise<unknown>;
    Object.defineProperty(response, reader, {
      value: () =>
        read.call(response).then(
          (value) => (done?.(), value),
          (error: unknown) => {
            done?.();
            throw named(error);
          },
        ),
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

  /** One attempt: the answer with its body read (bounded), or a thrown NetworkError/TimeoutError/abort reason. */
  async function attempt(
    request: Request,
    op: MatchedOperation,
    timeoutMs: number,
    attempts: number,
    callerSignal: AbortSignal | undefined,
    mayRetry: boolean,
  ): Promise<Response> {
    const deadline = deadlineSignal(timeoutMs);
    let signal = deadline;
    let release: (() => void) | undefined;
    if (callerSignal) {
      // The caller's signal travels inside the Request, but fetch takes one signal: combine the two.
      if (callerSignal.aborted) throw callerSignal.reason;
      const controller = new AbortController();
      const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
      callerSignal.addEventListener('abort', onAbort, { once: true });
      deadline.addEventListener('abort', onAbort, { once: true });
      release = () => {
        callerSignal.removeEventListener('abort', onAbort);
        deadline.removeEventListener('abort', onAbort);
      };
      signal = controller.signal;
    }
    let status = 0;
    const named = (error: unknown): unknown => {
      if (callerSignal?.aborted) return callerSignal.reason;
      if (error instanceof ResponseTooLarge) return new ResponseTooLargeError({ ...op, limit: options.maxResponseBytes });
      if (error instanceof SyntaxError) return new ResponseFormatError({ ...op, status });
      if (signal.aborted && (signal.reason instanceof DeadlinePassed || deadline.aborted)) return new TimeoutError({ ...op, timeoutMs });
      return new NetworkError({ ...op, attempts, cause: error });
    };
    let response: Response;
    try {
      response = await baseFetch(request, { signal });
      status = response.status;
      const length = response.headers.get('content-length');
      if (!mayRetry && length !== null && Number(length) <= options.maxResponseBytes) {
        // No retry left and a declared length within the limit: hand the answer on as it is (a new Response
        // costs a new stream). While a retry is still possible the body is read here, so that a connection
        // dropped mid-body can be retried.
        // The signal stays armed while the body is read, and a failure while reading is still named.
        guardBody(response, named, release);
        release = undefined;
        return response;
      }
      const body = await readBody(response, options.maxResponseBytes);
      // Declare the length so that openapi-fetch parses through json(), which the guard names on failure.
      const headers = new Headers(response.headers);
      if (body) headers.set('content-length', String(body.byteLength));
      const buffered = new Response(body as BodyInit | null, { status: response.status, statusText: response.statusText, headers });
      guardBody(buffered, named, undefined);
      return buffered;
    } catch (error) {
      throw named(error);
    } finally {
      release?.();
    }
  }

  return async function rampFetch(input, init) {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const extras = request as Request & { [OPERATION_ID_KEY]?: string; [CALLER_SIGNAL_KEY]?: AbortSignal } & PerRequestOptions;
    const callerSignal = extras[CALLER_SIGNAL_KEY];
    const method = request.method;
    const op =
      (extras[OPERATION_ID_KEY] && operationById(options.operations, extras[OPERATION_ID_KEY], method)) ||
      match(method, new URL(request.url).pathname);
    const timeoutMs = typeof extras.timeoutMs === 'number' && extras.timeoutMs > 0 ? extras.timeoutMs : options.timeoutMs;
    const token = op.secured ? options.token : undefined;
    const retryable = options.retry !== false && RETRYABLE_METHODS.has(method);
    const maxAttempts = retryable && options.retry ? options.retry.attempts : 1;
    // A body can be sent once; keep a copy only when the request may have to be repeated after a 401.
    let spare = token?.renewable && request.body !== null ? request.clone() : undefined;

    let current = request;
    let sentToken: string | undefined;
    if (token) {
      sentToken = token.peek() ?? (await token.get());
      current.headers.set('authorization', `Bearer ${sentToken}`);
    }

    let repeatedAfter401 = false;
    for (let attemptNo = 1; ; attemptNo++) {
      let response: Response;
      try {
        response = await attempt(current, op, timeoutMs, attemptNo, callerSignal, retryable && attemptNo < maxAttempts);
      } catch (error) {
        if (error instanceof NetworkError && attemptNo < maxAttempts) {
          const delay = backoff(attemptNo);
          options.logger?.warn(`${op.operationId ?? op.path}: no answer (attempt ${attemptNo}/${maxAttempts}); retrying in ${delay} ms`);
          await sleep(delay);
          continue;
        }
        throw error;
      }

      if (response.status === 401 && token?.renewable && sentToken !== undefined && !repeatedAfter401) {
        // The service refused the token before doing anything: renew it and repeat this request once.
        repeatedAfter401 = true;
        token.invalidate(sentToken);
        sentToken = await token.get();
        if (spare) {
          current = spare;
          spare = undefined;
        }
        current.headers.set('authorization', `Bearer ${sentToken}`);
        options.logger?.warn(`${op.operationId ?? op.path}: token refused (401); repeating once with a new token`);
        attemptNo--; // the repeat does not use up a retry attempt
        continue;
      }

      if (retryable && options.retry && RETRYABLE_STATUS(response.status) && attemptNo < maxAttempts) {
        const hinted = retryAfterMs(response.headers.get('retry-after'));
        if (hinted === undefined || hinted <= options.retry.maxRetryAfterMs) {
          const delay = hinted ?? backoff(attemptNo);
          options.logger?.warn(`${op.operationId ?? op.path}: HTTP ${response.status} (attempt ${attemptNo}/${maxAttempts}); retrying in ${delay} ms`);
          await sleep(delay);
          continue;
        }
      }

      callByResponse.set(response, {
        operationId: op.operationId,
        method: op.method,
        path: op.path,
        secrets: sentToken === undefined ? [] : [sentToken],
        sensitive: op.operationId !== null && options.sensitiveOperationIds.includes(op.operationId),
      });
      return response;
    }
  };
}
