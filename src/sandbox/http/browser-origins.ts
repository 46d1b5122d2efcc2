// Pages of other origins that may call the sandbox from a browser (the documentation site's console, which
// `npm start` serves on another port): their CORS preflight is answered and their answers are readable. Any
// other origin gets no CORS header, so a browser keeps its pages from reading the sandbox's answers.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Marks `res` readable by the request's origin when it is one of `origins`; answers a preflight from such an
 * origin (204) and returns true, so the caller sends nothing more.
 */
export function answerBrowserOrigin(origins: readonly string[], req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origins.length === 0) return false;
  res.setHeader('vary', 'Origin');
  if (!origin || !origins.includes(origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', '*');
  if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
    'access-control-max-age': '600',
    'content-length': 0,
  });
  res.end();
  return true;
}
