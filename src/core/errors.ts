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
}

/** The options given to a client are unusable (missing or insecure `baseUrl`, bad auth options, ...). */
export class ConfigurationError extends RampApiError {
  override name = 'ConfigurationError';
}

/** The service answered with an error status. Carries the parsed body, typed per operation where documented. */
export class ApiError<Body = unknown> extends RampApiError {
  override name = 'ApiError';
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: Body;

  constructor(info: CallInfo & { status: number; body: Body }) {
    super(`${info.operationId ?? 'request'} (${info.method} ${info.path}) failed with HTTP ${info.status}`);
    this.operationId = info.operationId;
    this.method = info.method;
    this.path = info.path;
    this.status = info.status;
    this.body = info.body;
  }

  toJSON() {
    return { name: this.name, message: this.message, operationId: this.operationId, method: this.method, path: this.path, status: this.status, body: this.body };
  }
}

/** No answer: the connection failed (after any retries the call allowed). */
export class NetworkError extends RampApiError {
  override name = 'NetworkError';
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(info: CallInfo & { attempts: number; cause: unknown }) {
    const reason = info.cause instanceof Error ? `${info.cause.message}${causeCode(info.cause)}` : String(info.cause);
    super(`${info.operationId ?? 'request'} (${info.method} ${info.path}) got no answer after ${info.attempts} attempt(s): ${reason}`, {
      cause: info.cause,
    });
    this.operationId = info.operationId;
    this.method = info.method;
    this.path = info.path;
    this.attempts = info.attempts;
  }

  toJSON() {
    return { name: this.name, message: this.message, operationId: this.operationId, method: this.method, path: this.path, attempts: this.attempts };
  }
}

/** The answer did not arrive within the timeout. */
export class TimeoutError extends RampApiError {
  override name = 'TimeoutError';
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly timeoutMs: number;

  constructor(info: CallInfo & { timeoutMs: number }) {
    super(`${info.operationId ?? 'request'} (${info.method} ${info.path}) timed out after ${info.timeoutMs} ms`);
    this.operationId = info.operationId;
    this.method = info.method;
    this.path = info.path;
    this.timeoutMs = info.timeoutMs;
  }

  toJSON() {
    return { name: this.name, message: this.message, operationId: this.operationId, method: this.method, path: this.path, timeoutMs: this.timeoutMs };
  }
}

/** No access token could be obtained. The message never includes the credentials or the token call's body. */
export class TokenError extends RampApiError {
  override name = 'TokenError';
  readonly status: number | null;

  constructor(message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status ?? null;
  }

  toJSON() {
    return { name: this.name, message: this.message, status: this.status };
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
