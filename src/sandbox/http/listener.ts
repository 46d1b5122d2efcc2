// The listener: node:http, framing answers, who may ask (./guards.ts: the Host, the Origin of a write, CORS),
// the sandbox's own pages and documents, and every other request handed to the pipeline (../pipeline/), which
// routes it. Every answer carries the protection headers of ./policies.ts.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { OpenApiDocument } from '../contract/document.js';
import { readReferencePage } from '../contract/reference.js';
import { Refusal, refusalBody, refusals } from '../core/refusals.js';
import { refuseContentType } from '../pipeline/body.js';
import { answerOperation, type Pipeline } from '../pipeline/index.js';
import { unbuiltDocsPage } from './docs-page.js';
import type { Guard } from './guards.js';
import { lingerBeforeClosing } from './lingering-close.js';
import { createPageServer } from './page-server.js';
import { COMMON_HEADERS, createDocumentPolicies, JSON_POLICY } from './policies.js';
import { requestTarget } from './target.js';

function send(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  type = 'application/json',
  headers?: Record<string, string>,
): void {
  // A body left unread (refused, too large, or sent to an operation that takes none) ends the connection.
  const unread = res.req && !res.req.complete ? { connection: 'close' } : undefined;
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'content-security-policy': JSON_POLICY,
    ...COMMON_HEADERS,
    ...headers,
    ...unread,
  });
  res.end(text);
  // The client may still be writing the body: it reads the answer before the connection closes.
  if (unread) lingerBeforeClosing(res.req.socket);
}

const sendRefusal = (res: ServerResponse, refusal: Refusal) =>
  send(res, refusal.status, JSON.stringify(refusalBody(refusal)), undefined, refusal.headers);

/**
 * The control API's description with the address this sandbox is on (its public URL, else where it listens) as
 * its one server, instead of the description's example port.
 */
function onItsAddress(doc: OpenApiDocument, origin: string): OpenApiDocument {
  return { ...doc, servers: [{ url: origin, description: 'This sandbox.' }] };
}

export function createListener(pipeline: Pipeline, guard: Guard, controlDoc?: OpenApiDocument): Server {
  const pages = createPageServer();
  const documentPolicy = createDocumentPolicies();
  return createServer((req, res) => {
    void (async () => {
      const method = (req.method ?? 'GET').toLowerCase();
      try {
        guard.checkHost(req);
        if (method === 'options' && req.headers.origin !== undefined) {
          res.writeHead(204, { ...COMMON_HEADERS, ...guard.preflight(req), 'content-length': 0 }).end();
          return;
        }
        refuseContentType(req, method);
        guard.checkOrigin(req, method);
        // Only a request from a web page carries an Origin; the clients, curl and tests send none.
        if (req.headers.origin !== undefined)
          for (const [name, value] of Object.entries(guard.corsHeaders(req))) res.setHeader(name, value);
        const target = requestTarget(req.url ?? '/');
        if (method === 'get' && target.pathname === '/sandbox/openapi.json' && controlDoc)
          return send(res, 200, JSON.stringify(onItsAddress(controlDoc, pipeline.context.origin)));
        if (method === 'get' && target.pathname === '/sandbox/docs' && controlDoc) {
          const html = (await readReferencePage()) ?? unbuiltDocsPage(controlDoc);
          return send(res, 200, html, 'text/html', {
            'content-security-policy': documentPolicy(html),
            'referrer-policy': 'no-referrer',
          });
        }
        const page = pages(method, target.pathname);
        if (page) return send(res, page.status, page.body ?? '', page.type, page.headers);
        const sent = await answerOperation(pipeline, method, target, req);
        return send(res, sent.status, sent.text, undefined, sent.headers);
      } catch (error) {
        if (error instanceof Refusal) return sendRefusal(res, error);
        throw error;
      }
    })().catch((error: unknown) => {
      // A connection closed while its body was read (too slow, evicted, or gone): there is no one to answer.
      if (req.destroyed && !req.complete) return void res.destroy();
      pipeline.logger.error(`[sandbox] internal error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) sendRefusal(res, refusals.internal());
      else res.destroy();
    });
  });
}
