// Fetches the `--check` target at a URL (a description or a package tarball), bounded in time and in size, and
// when it cannot be had, says why in the words a person looks for: connection refused, unknown host, no answer in
// time, the HTTP status, a body larger than any target is.
import { lookup as systemLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CheckTargetError } from './errors.js';

export interface FetchOptions {
  /** How long to wait for the target, headers and body, in milliseconds. */
  timeoutMs?: number;
  /** Resolves a host name: the system's resolver unless given. */
  lookup?: (host: string) => Promise<unknown>;
}

/** Refuses a body over `maxBytes`: `tooLarge` says so in the words of the caller. */
export interface BodyBound {
  maxBytes: number;
  tooLarge: () => CheckTargetError;
}

const FETCH_TIMEOUT_MS = 30_000;

/** The code of a network error, or of the error it wraps (fetch's `cause`, or the first of several attempts). */
function errorCode(error: unknown): string | undefined {
  const found = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  if (!found || typeof found !== 'object') return undefined;
  if (typeof found.code === 'string') return found.code;
  return errorCode(found.cause) ?? errorCode(found.errors?.[0]);
}

/** Why `host` could not be reached, in the words a person looks for. */
function unreachable(error: unknown, host: string, timeoutMs: number): string {
  if ((error as Error | undefined)?.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME') return `unknown host ${host}`;
  if (code === 'EAI_AGAIN') return `unknown host ${host} (the resolver did not answer)`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed before the answer';
  return code ?? (error as Error).message;
}

/** Rejects with the signal's reason once it aborts (never settles before). */
function expiry(signal: AbortSignal): Promise<never> {
  const expired = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  // Nobody awaits it once the race is won: its later rejection is not an unhandled one.
  expired.catch(() => {});
  return expired;
}

/**
 * The body, read to its end or refused once it passes the bound: bytes are counted as they arrive (after any
 * decompression), and a declared length over the bound is refused before reading.
 */
async function boundedBody(response: Response, bound: BodyBound): Promise<Buffer> {
  if (Number(response.headers.get('content-length')) > bound.maxBytes) throw bound.tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop by a throw cancels the stream: nothing more is read.
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > bound.maxBytes) throw bound.tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The bytes at `url` (a description or a tarball): its host resolved first, so that an unknown one is named as such. */
export async function fetchBytes(url: string, bound: BodyBound, options: FetchOptions = {}): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const failed = (error: unknown) =>
    new CheckTargetError(`${url} could not be fetched: ${unreachable(error, host, timeoutMs)}.`);
  // One bound for the whole: the name's resolution, the connection, the headers and the body.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    if (!isIP(host)) await Promise.race([(options.lookup ?? systemLookup)(host), expiry(signal)]);
    const response = await fetch(url, { signal });
    if (!response.ok) throw new CheckTargetError(`${url} answered HTTP ${response.status}.`);
    return await boundedBody(response, bound);
  } catch (error) {
    throw error instanceof CheckTargetError ? error : failed(error);
  }
}
