// Access tokens: a fixed token, a caller's async provider, or the built-in token call; cached until shortly
// before expiry, with one shared request when many calls need a token at once.
import { TokenError } from './errors.js';

/** A token with, optionally, when it stops being valid. */
export interface TokenGrant {
  token: string;
  /** When the token expires: a Date or epoch milliseconds. */
  expiresAt?: Date | number;
  /** Or: seconds from now until it expires. */
  expiresInSeconds?: number;
}

/** How a client authenticates. */
export type AuthOptions =
  /** A fixed token. It cannot be renewed: a 401 is returned to you as is. */
  | { token: string }
  /** Your own function; called again when the cached token expires or the service answers 401. */
  | { getToken: () => string | TokenGrant | Promise<string | TokenGrant> }
  /**
   * The built-in token call (`createToken` / `createClientToken`) with this JSON body. The source does not
   * show the body or the answer, so pass `readToken` if the default reading (`access_token`, `accessToken`,
   * `token` or `jwt`, at the top level or under `data`) does not fit your deployment.
   */
  | { credentials: Record<string, unknown>; readToken?: (responseBody: unknown) => string | TokenGrant };

export interface TokenSource {
  /** Whether a rejected token can be replaced by a new one. */
  readonly renewable: boolean;
  /** The cached token if it is still fresh; no I/O. */
  peek(): string | undefined;
  /** A fresh token, from the cache or one shared request. */
  get(): Promise<string>;
  /** Drops `token` from the cache (after a 401), unless a newer one replaced it already. */
  invalidate(token: string): void;
}

/** Refuses a token that an HTTP header cannot carry unchanged (line breaks, control or non-Latin-1 characters). */
function checkHeaderSafe(token: string): string {
  // Printable Latin-1 only (space inside), the characters an HTTP header carries unchanged.
  if (/[^ -~\u00a0-\u00ff]|^ | $/.test(token)) {
    throw new TokenError(
      'The token cannot go into an HTTP header (line break, control, non-Latin-1, or surrounding space); not sent.',
    );
  }
  return token;
}

const TOKEN_KEYS = ['access_token', 'accessToken', 'token', 'jwt'] as const;
const EXPIRY_KEYS = ['expires_in', 'expiresIn'] as const;

/** Reads a token (and `expires_in` when present) from a token call's JSON answer. */
export function readTokenFromBody(body: unknown): TokenGrant {
  if (typeof body === 'string' && body) return { token: body };
  for (const candidate of [body, (body as { data?: unknown } | null)?.data]) {
    if (!candidate || typeof candidate !== 'object') continue;
    const record = candidate as Record<string, unknown>;
    const key = TOKEN_KEYS.find((k) => typeof record[k] === 'string' && record[k]);
    if (!key) continue;
    const expiry = EXPIRY_KEYS.map((k) => record[k]).find((v) => typeof v === 'number' && v > 0) as number | undefined;
    return expiry === undefined
      ? { token: record[key] as string }
      : { token: record[key] as string, expiresInSeconds: expiry };
  }
  throw new TokenError(
    `The token answer has no ${TOKEN_KEYS.join(', ')} (top level or under data): pass \`readToken\`.`,
  );
}

/** The `exp` claim of a JWT in epoch milliseconds, or undefined when the token is not a readable JWT. */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload || token.split('.').length !== 3) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

interface Cached {
  token: string;
  /** Renew at or after this time (epoch ms); null when the lifetime is unknown. */
  renewAt: number | null;
}

export interface TokenCacheOptions {
  /** Lifetime assumed when neither the grant nor the JWT says (Business: 300 s); null for unknown. */
  defaultLifetimeSeconds: number | null;
  /** A grant request older than this is given up on: the next call asks again instead of waiting on it. */
  grantTimeoutMs: number;
  now?: () => number;
}

/** Renew this long before expiry: 10% of the lifetime, at least 1 s and at most 30 s. */
function renewMargin(lifetimeMs: number): number {
  return Math.min(30_000, Math.max(1_000, lifetimeMs * 0.1));
}

export function createTokenSource(
  fetchGrant: () => Promise<string | TokenGrant>,
  options: TokenCacheOptions,
): TokenSource {
  const now = options.now ?? Date.now;
  let current: Cached | undefined;
  /** The grant request under way, shared by every caller, and when it started. */
  let pending: { promise: Promise<string>; startedAt: number } | undefined;

  const toCached = (grant: string | TokenGrant, issuedAt: number): Cached => {
    const { token, expiresAt, expiresInSeconds } =
      typeof grant === 'string' ? ({ token: grant } as TokenGrant) : ((grant ?? {}) as TokenGrant);
    if (typeof token !== 'string' || token === '')
      throw new TokenError(`The token provider returned no token (got ${grant === null ? 'null' : typeof grant}).`);
    checkHeaderSafe(token);
    const expiry =
      expiresAt !== undefined
        ? +expiresAt
        : expiresInSeconds !== undefined
          ? issuedAt + expiresInSeconds * 1000
          : (jwtExpiry(token) ??
            (options.defaultLifetimeSeconds === null ? undefined : issuedAt + options.defaultLifetimeSeconds * 1000));
    return { token, renewAt: expiry === undefined ? null : expiry - renewMargin(expiry - issuedAt) };
  };

  const fresh = () => (current && (current.renewAt === null || now() < current.renewAt) ? current.token : undefined);

  return {
    renewable: true,
    peek: fresh,
    get() {
      const token = fresh();
      if (token !== undefined) return Promise.resolve(token);
      // A request older than its bound is given up on (it fails on its own): the next caller asks again.
      if (pending && now() - pending.startedAt < options.grantTimeoutMs) return pending.promise;
      const entry = { startedAt: now(), promise: Promise.resolve('') };
      entry.promise = (async () => {
        try {
          current = toCached(await fetchGrant(), entry.startedAt);
          return current.token;
        } finally {
          if (pending === entry) pending = undefined;
        }
      })();
      pending = entry;
      return entry.promise;
    },
    invalidate(token) {
      if (current?.token === token) current = undefined;
    },
  };
}

export function fixedTokenSource(token: string): TokenSource {
  if (typeof token !== 'string' || token === '') throw new TokenError('`auth.token` is empty.');
  checkHeaderSafe(token);
  const resolved = Promise.resolve(token);
  return { renewable: false, peek: () => token, get: () => resolved, invalidate() {} };
}
