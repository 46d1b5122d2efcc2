// Serves a folder over HTTP on loopback (used by `npm start` and the browser test).
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

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

/** Options of serveFolder: `html` rewrites each HTML page as it is served (the live addresses of `npm start`). */
export interface ServeOptions {
  html?: (text: string) => string;
}

export async function serveFolder(root: string, port = 0, options: ServeOptions = {}): Promise<StaticServer> {
  const server = createServer((req, res) => {
    // Any client can send `//` or a broken percent escape: both are a 400, never an exception.
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
      return;
    }
    const file = normalize(join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (!file.startsWith(normalize(root) + sep) && file !== normalize(root)) {
      res.writeHead(403).end('Forbidden');
      return;
    }
    let size: number;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new Error('not a file');
      size = stats.size;
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    if (options.html && extname(file) === '.html') {
      let text: string;
      try {
        text = options.html(readFileSync(file, 'utf8'));
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': size });
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
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
