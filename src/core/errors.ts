// The named errors a client throws. None of them ever holds a token, credentials or request headers.

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

/** The service answered with an error status. Carries the parsed body, typed per operation where documented. */
export class ApiError<Body = unknown> extends RampApiError {
  override name = 'ApiError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly status: number;
  declare readonly body: Body;

  constructor(info: CallInfo & { status: number; body: Body }) {
    super(`${describe(info)} failed with HTTP ${info.status}`);
    Object.assign(this, info);
  }
}

/** No answer: the connection failed (after any retries the call allowed). */
export class NetworkError extends RampApiError {
  override name = 'NetworkError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly attempts: number;

  constructor({ cause, ...info }: CallInfo & { attempts: number; cause: unknown }) {
    const reason = cause instanceof Error ? `${cause.message}${causeCode(cause)}` : String(cause);
    super(`${describe(info)} got no answer after ${info.attempts} attempt(s): ${reason}`, { cause });
    Object.assign(this, info);
  }
}

/** The answer did not arrive within the timeout. */
export class TimeoutError extends RampApiError {
  override name = 'TimeoutError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly timeoutMs: number;

  constructor(info: CallInfo & { timeoutMs: number }) {
    super(`${describe(info)} timed out after ${info.timeoutMs} ms`);
    Object.assign(this, info);
  }
}

/** The answer's body is larger than the client's `maxResponseBytes`; it was not read whole. Never retried. */
export class ResponseTooLargeError extends RampApiError {
  override name = 'ResponseTooLargeError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly limit: number;

  constructor(info: CallInfo & { limit: number }) {
    super(`${describe(info)} answered with a body over ${info.limit} bytes`);
    Object.assign(this, info);
  }
}

/** The answer says it is JSON (or is parsed as JSON) but its body is not valid JSON. */
export class ResponseFormatError extends RampApiError {
  override name = 'ResponseFormatError';
  declare readonly operationId: string | null;
  declare readonly method: string;
  declare readonly path: string;
  declare readonly status: number;

  constructor(info: CallInfo & { status: number }) {
    super(`${describe(info)} answered HTTP ${info.status} with a body that is not valid JSON`);
    Object.assign(this, info);
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

/** The first system error code (ECONNREFUSED, ECONNRESET, ...) found along an error's cause chain. */
function causeCode(error: unknown): string {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return ` (${code})`;
    const nested = (current as { errors?: unknown[] }).errors?.[0];
    current = nested ?? (current as { cause?: unknown }).cause;
  }
  return '';
}
