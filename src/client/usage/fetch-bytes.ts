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
  lookup?: (host: string, options: { all: true }) => Promise<unknown>;
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

/** A redirect's limit: a registry or a release page leads to its file in one or two. */
const MAX_REDIRECTS = 5;

/** Whether `address` (an IP address) is link-local: 169.254.0.0/16, fe80::/10, or IPv4 of the first as IPv6. */
function isLinkLocal(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) return v4.startsWith('169.254.');
  return isIP(address) === 6 && /^fe[89ab]/i.test(address);
}

/** The addresses `host` has: itself for an IP address, else what the resolver gives. */
async function addressesOf(host: string, options: FetchOptions, signal: AbortSignal): Promise<string[]> {
  if (isIP(host)) return [host];
  const found = await Promise.race([(options.lookup ?? systemLookup)(host, { all: true }), expiry(signal)]);
  return (Array.isArray(found) ? found : [found]).flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null && typeof (entry as { address?: unknown }).address === 'string'
      ? [(entry as { address: string }).address]
      : [],
  );
}

/** One request to `hop`, which must not be on a link-local address (the host is resolved first). */
async function request(url: string, hop: string, options: FetchOptions, signal: AbortSignal): Promise<Response> {
  const host = new URL(hop).hostname.replace(/^\[(.*)\]$/, '$1');
  if ((await addressesOf(host, options, signal)).some(isLinkLocal))
    throw new CheckTargetError(
      `${url} could not be fetched: ${hop === url ? 'it is' : `it leads to ${hop},`} a link-local address, which is never fetched.`,
    );
  return fetch(hop, { signal, redirect: 'manual' });
}

/** The answer at `url`, following its redirects (each hop checked as the first), or refused with its cause. */
async function answerAt(url: string, options: FetchOptions, signal: AbortSignal): Promise<Response> {
  let hop = url;
  for (let redirects = 0; ; redirects++) {
    const response = await request(url, hop, options, signal);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return response;
    if (redirects === MAX_REDIRECTS)
      throw new CheckTargetError(`${url} could not be fetched: more than ${MAX_REDIRECTS} redirects.`);
    await response.body?.cancel();
    hop = new URL(location, hop).href;
    if (!/^https?:$/.test(new URL(hop).protocol))
      throw new CheckTargetError(`${url} could not be fetched: it leads to a ${new URL(hop).protocol} address.`);
  }
}

/** The bytes at `url` (a description or a tarball): each host resolved first, so that an unknown one is named as such. */
export async function fetchBytes(url: string, bound: BodyBound, options: FetchOptions = {}): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const failed = (error: unknown) =>
    new CheckTargetError(`${url} could not be fetched: ${unreachable(error, host, timeoutMs)}.`);
  // One bound for the whole: the names' resolution, the connections, the headers and the body.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await answerAt(url, options, signal);
    if (!response.ok) throw new CheckTargetError(`${url} answered HTTP ${response.status}.`);
    return await boundedBody(response, bound);
  } catch (error) {
    throw error instanceof CheckTargetError ? error : failed(error);
  }
}
