// The fetch one call gives openapi-fetch: it adds the call's token after any middleware, sends with the call's
// signal, refuses redirects and bounds the answer, passing the Response through untouched when its size is known.
import { type CallInfo, RedirectError } from './errors.js';

/** What the fetch of one call needs, and what it records for the errors raised from the call's result. */
export interface Attempt extends CallInfo {
  /** The fetch that sends (the client's, or one call's own `fetch`). */
  readonly fetch: typeof globalThis.fetch;
  readonly signal: AbortSignal;
  /** Largest answer body accepted, in bytes. */
  readonly limit: number;
  /** The token to send, set before each attempt. */
  token: string | undefined;
  /** The full URL called, and the status of the latest answer. */
  url: string;
  status: number;
}

/**
 * The request openapi-fetch builds (its `Request` option) for a call no middleware sees: the URL and init,
 * which the call's fetch sends as `fetch(url, init)`. fetch then builds the call's only Request, where one built
 * here would be copied into a second.
 */
export class CallRequest {
  declare readonly url: string;
  declare readonly init: RequestInit & { method: string; headers: Headers };
  constructor(url: string, init: CallRequest['init']) {
    this.url = url;
    this.init = init;
  }
  get method(): string {
    return this.init.method;
  }
  get headers(): Headers {
    return this.init.headers;
  }
}

/** Thrown when an answer's body is over the limit; the call names it (ResponseTooLargeError). */
export class ResponseTooLarge extends Error {}

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/** Sends `request` for the call `attempt` describes. */
export async function send(request: Request | CallRequest, attempt: Attempt): Promise<Response> {
  if (attempt.token !== undefined) request.headers.set('authorization', `Bearer ${attempt.token}`);
  attempt.url = request.url;
  // Redirects are never followed: a body, a credential or a token goes only where the caller sent it.
  // Called as a plain function: a browser's own fetch refuses another object as `this` ("Illegal invocation").
  const { fetch } = attempt;
  const init: RequestInit = { signal: attempt.signal, redirect: 'manual' };
  const response = await (request instanceof CallRequest
    ? fetch(request.url, Object.assign(request.init, init))
    : fetch(request, init));
  const { status } = response;
  attempt.status = status;
  if (REDIRECT_STATUS.has(status)) {
    await response.body?.cancel().catch(() => {});
    // Where it pointed, without the query: a query may carry someone's secrets.
    const location = response.headers.get('location')?.split(/[?#]/)[0] ?? null;
    throw new RedirectError({
      operationId: attempt.operationId,
      method: attempt.method,
      path: attempt.path,
      status,
      location,
    });
  }
  return bounded(response, attempt.limit);
}

/** `response`, whose body cannot be read past `limit` bytes, counted after decompression. */
function bounded(response: Response, limit: number): Response {
  const length = response.headers.get('content-length');
  const encoding = response.headers.get('content-encoding');
  if (length !== null && (encoding === null || encoding === 'identity')) {
    // An uncompressed body of declared length: HTTP framing bounds it, so it is handed on untouched.
    if (Number(length) > limit) {
      response.body?.cancel().catch(() => {});
      throw new ResponseTooLarge();
    }
    return response;
  }
  // Compressed or of unknown length: the bytes are counted as they are read, decompressed, never trusting a
  // declared length; past the limit the read fails and the rest is never read.
  let size = 0;
  const counted = response.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, stream) {
        size += chunk.byteLength;
        if (size > limit) throw new ResponseTooLarge();
        stream.enqueue(chunk);
      },
    }),
  );
  // The headers are kept as they came, as fetch itself keeps them when it decompresses.
  const { status, statusText, headers } = response;
  return new Response(counted, { status, statusText, headers });
}
