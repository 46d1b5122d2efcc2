// Serves a folder over HTTP on loopback (used by `npm start` and the browser test), with the sandbox's
// protections: only its own host names are answered (421 otherwise, so a page that rebinds a domain to
// 127.0.0.1 reads nothing, the local targets file included), and every answer carries nosniff, no referrer
// and a Content-Security-Policy that forbids framing; an HTML page's inline scripts and styles are allowed by
// hash, its own files by origin, and its calls may go to any http(s) address (the console sends to the
// address its user picks).
import { readFileSync, statSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { Refusal, refusalBody } from '../../src/sandbox/core/refusals.js';
import { createGuard } from '../../src/sandbox/http/guards.js';
import { COMMON_HEADERS, documentPolicy, JSON_POLICY } from '../../src/sandbox/http/policies.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'application/yaml; charset=utf-8',
  '.png': 'image/png',
  '.css': 'text/css',
  '.js': 'text/javascript',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs `listen`; if its port is taken, says so in one line (no stack) and exits with status 1. Other errors
 * are thrown as they are.
 */
export async function listenOrExit<T>(listen: () => Promise<T>, port: string): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    console.error(
      `Port ${port} on 127.0.0.1 is already in use: set PORT to a free port, or leave it unset to use any free one.`,
    );
    process.exit(1);
  }
}

/** Headers of every answer: nothing sniffed, no referrer, never framed. */
const PROTECTION = { ...COMMON_HEADERS, 'referrer-policy': 'no-referrer' };

/**
 * The policy of one of the site's HTML pages: documentPolicy, plus the site's own files and calls to any API.
 * Its scripts may evaluate code they build ('unsafe-eval'): the console checks each answer with JSON Schema
 * validators that Ajv compiles in the page. Inline scripts still run only by hash.
 */
export function sitePagePolicy(html: string): string {
  return documentPolicy(html)
    .replace("script-src 'none'", 'script-src')
    .replace('script-src', "script-src 'self' 'unsafe-eval'")
    .replace('style-src', "style-src 'self'")
    .replace("connect-src 'self'", "connect-src 'self' http: https:");
}

/** Policies of the HTML files served, by path, size and time of change: at most 64 (a few KiB each). */
function createPagePolicies(): (file: string, html: Buffer, stamp: string) => string {
  const known = new Map<string, { stamp: string; policy: string }>();
  return (file, html, stamp) => {
    const kept = known.get(file);
    if (kept?.stamp === stamp) return kept.policy;
    if (known.size >= 64) known.clear();
    const policy = sitePagePolicy(html.toString('utf8'));
    known.set(file, { stamp, policy });
    return policy;
  };
}

function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res
    .writeHead(status, {
      ...PROTECTION,
      'content-type': type,
      'content-length': Buffer.byteLength(text),
      'content-security-policy': JSON_POLICY,
    })
    .end(text);
}

/** Options of serveFolder: `html` rewrites each HTML page as it is served (the live addresses of `npm start`). */
export interface ServeOptions {
  html?: (text: string) => string;
}

export async function serveFolder(root: string, port = 0, options: ServeOptions = {}): Promise<StaticServer> {
  const guard = createGuard({ host: '127.0.0.1' });
  const pagePolicy = createPagePolicies();
  const server = createServer((req, res) => {
    try {
      guard.checkHost(req);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return sendText(res, error.status, JSON.stringify(refusalBody(error)), 'application/json');
    }
    // Any client can send `//` or a broken percent escape: both are a 400, never an exception.
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
    } catch {
      return sendText(res, 400, 'Bad request');
    }
    const file = normalize(join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (!file.startsWith(normalize(root) + sep) && file !== normalize(root)) return sendText(res, 403, 'Forbidden');
    let body: Buffer;
    let stamp: string;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new Error('not a file');
      stamp = `${stats.size}:${stats.mtimeMs}`;
      body = readFileSync(file);
    } catch {
      return sendText(res, 404, 'Not found');
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    if (options.html && extname(file) === '.html') body = Buffer.from(options.html(body.toString('utf8')));
    res.writeHead(200, {
      ...PROTECTION,
      'content-type': type,
      'content-length': body.length,
      'content-security-policy': type.startsWith('text/html') ? pagePolicy(file, body, stamp) : JSON_POLICY,
    });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  guard.listening((server.address() as AddressInfo).port);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
