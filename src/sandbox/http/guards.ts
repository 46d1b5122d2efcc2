// Who may ask, checked before any route: a request must name one of the sandbox's own hosts (a page on a domain
// that rebinds to 127.0.0.1 names its own), and a request that changes state must come from the sandbox's own
// origin, from a tool that sends no Origin, or from an origin the sandbox was told to trust, which alone gets
// CORS. Apart from the listener so that the command line checks its options without loading the server.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { refusals } from '../core/refusals.js';
import { isLoopback } from './exposure.js';

export interface GuardOptions {
  /** The address the sandbox listens on (`127.0.0.1`, `::1`, `0.0.0.0`, an interface address). */
  host: string;
  /** More host names to answer for, with any port: `name`, `name:port`, or `.domain` for it and its subdomains. */
  allowedHosts?: readonly string[];
  /** Web origins trusted to change state and given CORS (`http://127.0.0.1:4000`). */
  allowedOrigins?: readonly string[];
  /** The sandbox's public address, when a proxy serves it: its host is answered for, its origin trusted. */
  publicUrl?: string;
}

export interface Guard {
  /** Called once the sandbox listens: its own names are answered with this port only. */
  listening(port: number): void;
  /** Refuses (421) a request whose Host is not one of the sandbox's names. */
  checkHost(req: IncomingMessage): void;
  /** Refuses (403) a state-changing request from another origin that is not trusted. */
  checkOrigin(req: IncomingMessage, method: string): void;
  /** The CORS headers of an answer to a trusted origin; empty for any other request. */
  corsHeaders(req: IncomingMessage): Record<string, string>;
  /** The answer to a CORS preflight (an OPTIONS with an Origin): 204 for a trusted origin, else a refusal. */
  preflight(req: IncomingMessage): Record<string, string>;
}

const NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]{0,252}))$/;
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const SAFE_METHODS = new Set(['get', 'head', 'options']);

/** The name and port of a Host header, lowercased; port null when none is given. */
function splitHost(header: string): { name: string; port: number | null } | null {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(header.trim().toLowerCase());
  if (!m || !NAME.test(m[1]!)) return null;
  return { name: m[1]!, port: m[2] === undefined ? null : Number(m[2]) };
}

const bracketed = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

/** An `--allowed-hosts` entry as it is matched, or an Error saying what is wrong with it. */
export function parseAllowedHost(entry: string): { name: string; port: number | null; domain: boolean } {
  const text = entry.trim().toLowerCase();
  const domain = text.startsWith('.');
  const host = splitHost(domain ? text.slice(1) : text);
  if (!host?.name)
    throw new Error(
      `"${entry}" is not a host name (a name, an IPv4 address or a bracketed IPv6 one, optionally :port).`,
    );
  if (host.port !== null && (host.port < 1 || host.port > 65535))
    throw new Error(`"${entry}": ${host.port} is not a port (a whole number from 1 to 65535).`);
  return { ...host, domain };
}

/** An origin as a browser sends it (`scheme://host[:port]`), or an Error saying what is wrong with `text`. */
export function parseOrigin(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  )
    throw new Error(`"${text}" is not an origin (http:// or https://, a host and an optional port, nothing else).`);
  return url.origin;
}

/** A public URL as links are made from it (no trailing slash), or an Error saying what is wrong with `text`. */
export function parsePublicUrl(text: string): string {
  return parseOrigin(text.replace(/\/+$/, '/'));
}

/** The addresses of this machine's interfaces, as Host names (for a sandbox listening on all of them). */
function interfaceNames(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info ? [bracketed(info.address.split('%')[0]!)] : []));
}

const shown = (text: string) => JSON.stringify(text.slice(0, 100));

const unknownHost = (host: string) =>
  refusals.unknownHost(
    `The sandbox does not answer for the host ${shown(host)}; start it with --allowed-hosts NAME (startSandbox({ allowedHosts })) to answer for a name of yours.`,
  );

/**
 * The authority (`host[:port]`) of an absolute-form request target (`http://name:port/path`); undefined for the
 * origin form every client sends (`/path`) and for `*`; null for an absolute target whose authority cannot be read.
 */
function absoluteAuthority(target: string): string | null | undefined {
  if (target.startsWith('/') || target === '*') return undefined;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target);
  if (!m || m[1]!.includes('@')) return null;
  return m[1]!;
}

export function createGuard(options: GuardOptions): Guard {
  const wildcard = ['0.0.0.0', '::', ''].includes(options.host);
  /** The sandbox's own names: answered with its port only. */
  const own = new Set<string>([
    ...(isLoopback(options.host) || wildcard ? LOOPBACK_NAMES : []),
    ...(wildcard ? interfaceNames() : [bracketed(options.host.toLowerCase())]),
  ]);
  const extra = (options.allowedHosts ?? []).map(parseAllowedHost);
  const publicOrigin = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  if (publicOrigin) extra.push({ name: bracketed(new URL(publicOrigin).hostname), port: null, domain: false });
  const trusted = new Set((options.allowedOrigins ?? []).map(parseOrigin));
  if (publicOrigin) trusted.add(publicOrigin);
  let port = 0;

  const allowedHost = (header: string): boolean => {
    const host = splitHost(header);
    if (!host) return false;
    if (own.has(host.name) && (host.port ?? 80) === port) return true;
    return extra.some(
      (e) =>
        (e.name === host.name || (e.domain && host.name.endsWith(`.${e.name}`))) &&
        (e.port === null || e.port === (host.port ?? 80)),
    );
  };
  const originOf = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    return typeof origin === 'string' ? origin.trim() : undefined;
  };
  const isTrusted = (origin: string | undefined) => {
    if (origin === undefined || origin === 'null') return false;
    try {
      return trusted.has(new URL(origin).origin);
    } catch {
      return false;
    }
  };
  const refuseOrigin = (origin: string | undefined) =>
    refusals.crossOrigin(
      `The sandbox refuses a request that changes state from another web origin (${origin === undefined ? 'a cross-site request' : shown(origin)}); start it with --allowed-origins ORIGIN (startSandbox({ allowedOrigins })) to trust one.`,
    );

  return {
    listening(listeningPort) {
      port = listeningPort;
    },
    checkHost(req) {
      const header = req.headers.host;
      // An absolute-form target (`POST http://name:port/path`) names the host itself, and HTTP says it wins over
      // the Host header: its authority must be one of the sandbox's names too.
      const authority = absoluteAuthority(req.url ?? '/');
      if (authority !== undefined && (authority === null || !allowedHost(authority)))
        throw unknownHost(authority ?? req.url ?? '');
      // Only an HTTP/1.0 request can come without a Host (Node refuses an HTTP/1.1 one), and no browser sends one.
      if (header === undefined || allowedHost(header)) return;
      throw unknownHost(header);
    },
    checkOrigin(req, method) {
      if (SAFE_METHODS.has(method)) return;
      const origin = originOf(req);
      if (isTrusted(origin)) return;
      const site = req.headers['sec-fetch-site'];
      // A browser says where a request comes from: this origin, or the user's own action (typed, bookmarked).
      if (site !== undefined) {
        if (site === 'same-origin' || site === 'none') return;
        throw refuseOrigin(origin);
      }
      // No browser sent it (a client, curl, a test), or an old one: its Origin must then be this host's.
      if (origin === undefined) return;
      try {
        if (origin !== 'null' && new URL(origin).host === String(req.headers.host ?? '').toLowerCase()) return;
      } catch {
        // not a URL: another origin
      }
      throw refuseOrigin(origin);
    },
    corsHeaders(req): Record<string, string> {
      const origin = originOf(req);
      if (!isTrusted(origin)) return {};
      return {
        'access-control-allow-origin': new URL(origin!).origin,
        vary: 'Origin',
        // A trusted page (the docs console) shows every header of an answer.
        'access-control-expose-headers': '*',
      };
    },
    preflight(req) {
      const origin = originOf(req);
      if (!isTrusted(origin)) throw refuseOrigin(origin);
      const asked = String(req.headers['access-control-request-headers'] ?? '');
      const names = asked
        .split(',')
        .map((n) => n.trim().toLowerCase())
        .filter((n) => /^[a-z0-9-]{1,64}$/.test(n))
        .slice(0, 32);
      return {
        'access-control-allow-origin': new URL(origin!).origin,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
        ...(names.length ? { 'access-control-allow-headers': names.join(', ') } : {}),
        ...(req.headers['access-control-request-private-network'] === 'true'
          ? { 'access-control-allow-private-network': 'true' }
          : {}),
        'access-control-max-age': '600',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      };
    },
  };
}
