// The named errors a client throws. None of them ever holds a token, credentials or request headers.
import { unreachableCause } from './causes.js';
import { reasonOf, saying } from './reason.js';

/** What every ramp-api error says about the call that failed. */
export interface CallInfo {
  /** operationId from the description, or null when the call matches no documented operation. */
  operationId: string | null;
  method: string;
  /** Path template from the description (`/api/accounts/{clientId}`), or the request path when unknown. */
  path: string;
}

/** Base class: `instanceof RampApiError` catches everything this package throws on purpose. */
export class RampApiError extends Error {
  override name = 'RampApiError';

  /** The error's own fields (never a cause, headers or secrets), for logs and JSON. */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), message: this.message };
  }
}

const describe = (info: CallInfo) => `${info.operationId ?? 'request'} (${info.method} ${info.path})`;

/** The options given to a client are unusable (missing or insecure `baseUrl`, bad auth options, ...). */
export class ConfigurationError extends RampApiError {
  override name = 'ConfigurationError';
}

/** An error about one call: which operation, method and path template it was. */
export class CallError extends RampApiError {
  override name = 'CallError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;

  constructor(message: string, info: CallInfo, cause?: unknown) {
    super(`${describe(info)} ${message}`, cause === undefined ? undefined : { cause });
    Object.assign(this, info);
  }
}

/**
 * The service answered with an error status. Carries the parsed body, typed per operation where documented.
 * Its message carries the service's error code and message from the body (bounded, on one line), after the
 * token the call sent was redacted from the body; a call that sent credentials keeps no body.
 */
export class ApiError<Body = unknown> extends CallError {
  override name = 'ApiError';
  declare readonly status: number;
  declare readonly body: Body;
  /** The full URL that was called (it never carries a token). */
  declare readonly url: string;
  /** The answer's headers, lower-case names (Prism explains a 422 in `sl-violations`); secrets redacted. */
  declare readonly headers: Record<string, string>;

  constructor(
    info: CallInfo & { status: number; body: Body; url?: string; headers?: Record<string, string>; hint?: string },
  ) {
    const { hint, ...fields } = info;
    super(`failed with HTTP ${info.status}${saying(reasonOf(info.body), hint)}`, { url: '', headers: {}, ...fields });
  }
}

/** No answer: the connection failed (after any retries the call allowed). */
export class NetworkError extends CallError {
  override name = 'NetworkError';
  declare readonly attempts: number;
  /** The host:port that could not be reached. */
  declare readonly host: string;
  /** The system error code (ECONNREFUSED, ECONNRESET, ...) when there is one. */
  declare readonly code: string | null;

  constructor({ cause, host, ...info }: CallInfo & { attempts: number; host: string; cause: unknown }) {
    const code = causeCode(cause);
    const reason = cause instanceof Error ? cause.message : String(cause);
    const why = unreachableCause(host, code);
    super(
      `got no answer from ${host} after ${info.attempts} attempt(s): ${reason}${code ? ` (${code})` : ''}${why ? `; ${why}` : ''}`,
      info,
      cause,
    );
    Object.assign(this, { host, code });
  }
}

/**
 * The service answered with a redirect (3xx). Redirects are never followed: a body, a credential or a token
 * must not go anywhere the caller did not send it. Usually `baseUrl` is not the deployment's own address.
 */
export class RedirectError extends CallError {
  override name = 'RedirectError';
  declare readonly status: number;
  /** Where the redirect pointed (origin and path, no query), or null when it named no place. */
  declare readonly location: string | null;

  constructor(info: CallInfo & { status: number; location: string | null }) {
    super(
      `was answered HTTP ${info.status}, a redirect${info.location ? ` to ${info.location}` : ''}: not followed; check \`baseUrl\``,
      info,
    );
  }
}

/** A path parameter would change the path called (empty, `.` or `..`) or is missing. Nothing was sent. */
export class ParameterError extends CallError {
  override name = 'ParameterError';
  declare readonly parameter: string;

  constructor(info: CallInfo & { parameter: string; problem: string }) {
    const { problem, ...fields } = info;
    super(`not sent: path parameter \`${info.parameter}\` ${problem}`, fields);
  }
}

/** The answer did not arrive within the timeout. */
export class TimeoutError extends CallError {
  override name = 'TimeoutError';
  declare readonly timeoutMs: number;

  constructor(info: CallInfo & { timeoutMs: number }) {
    super(`timed out after ${info.timeoutMs} ms`, info);
  }
}

/** The answer's body is larger than the client's `maxResponseBytes`; it was not read whole. Never retried. */
export class ResponseTooLargeError extends CallError {
  override name = 'ResponseTooLargeError';
  declare readonly limit: number;

  constructor(info: CallInfo & { limit: number }) {
    super(`answered with a body over ${info.limit} bytes`, info);
  }
}

/** The answer says it is JSON (or is parsed as JSON) but its body is not valid JSON. */
export class ResponseFormatError extends CallError {
  override name = 'ResponseFormatError';
  declare readonly status: number;

  constructor(info: CallInfo & { status: number }) {
    super(`answered HTTP ${info.status} with a body that is not JSON`, info);
  }
}

/** No access token could be obtained. The message never includes the credentials or the token call's body. */
export class TokenError extends RampApiError {
  override name = 'TokenError';
  declare readonly status: number | null;

  constructor(message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.assign(this, { status: options.status ?? null });
  }
}

/** The first system error code (ECONNREFUSED, ECONNRESET, ...) found along an error's cause chain, or null. */
function causeCode(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (current as { errors?: unknown[] }).errors?.[0];
    current = nested ?? (current as { cause?: unknown }).cause;
  }
  return null;
}
