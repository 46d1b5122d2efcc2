// The site server of `npm start` survives any request target a client can send, answers only its own host
// names, and sends the sandbox's protection headers on every answer.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, rawRequest } from '../../src/testing/raw-http.js';
import { withLiveAddresses } from './live-addresses.js';
import { defaultBaseUrl } from './samples.js';
import { type StaticServer, serveFolder } from './static-server.js';

const SCRIPT = 'document.title = "x";';
const STYLE = 'h1 { color: red }';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

let root: string;
let server: StaticServer;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ramp-static-'));
  writeFileSync(join(root, 'index.html'), '<h1>ok</h1>');
  writeFileSync(
    join(root, 'page.html'),
    `<html><head><style>${STYLE}</style></head><body><script>${SCRIPT}</script></body></html>`,
  );
  writeFileSync(join(root, 'targets.json'), '{"sandbox":"http://127.0.0.1:4020"}');
  server = await serveFolder(root);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('static server', () => {
  it.each(['GET /% HTTP/1.1', 'GET /%E0%A4%A HTTP/1.1', 'GET // HTTP/1.1', 'GET /..%2f..%2fetc%2fpasswd HTTP/1.1'])(
    'answers %s with a 4xx and keeps serving',
    async (line) => {
      const status = await rawRequest(server.url, line);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe('<h1>ok</h1>');
    },
  );

  it('serves each HTML page with the live addresses in place of the documented one, and other files as they are', async () => {
    const documented = defaultBaseUrl();
    writeFileSync(join(root, 'guide.html'), `<code>${documented}</code>`);
    writeFileSync(join(root, 'data.json'), `"${documented}"`);
    const live = await serveFolder(root, 0, { html: (text) => withLiveAddresses(text, 'http://127.0.0.1:45001') });
    try {
      expect(await (await fetch(`${live.url}/guide.html`)).text()).toBe('<code>http://127.0.0.1:45001</code>');
      expect(await (await fetch(`${live.url}/data.json`)).text()).toBe(`"${documented}"`);
    } finally {
      await live.close();
    }
    expect(withLiveAddresses(`a ${documented} b`, undefined)).toBe(`a ${documented} b`);
  });
});

describe('protections of the docs site', () => {
  it('refuses a Host that is not one of its names with 421, on every path (a rebinding page reads nothing)', async () => {
    const port = new URL(server.url).port;
    for (const target of ['/', '/targets.json', '/page.html', '/no/such']) {
      const answer = await rawExchange(server.url, { target, headers: { host: `rebind.evil.example:${port}` } });
      expect(answer.status, target).toBe(421);
      expect(answer.body).not.toContain('4020');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await rawExchange(server.url, { target: '/targets.json', headers: { host } })).status, host).toBe(200);
    }
  });

  it('sends nosniff, no referrer and a CSP that forbids framing on every answer; an HTML page`s inline code by hash only', async () => {
    for (const path of ['/', '/page.html', '/targets.json', '/no/such', '/%']) {
      const answer = await fetch(server.url + path);
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(answer.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
    const policy = (await fetch(`${server.url}/page.html`)).headers.get('content-security-policy')!;
    expect(policy).toContain(sha256(SCRIPT));
    expect(policy).toContain(sha256(STYLE));
    expect(policy).not.toContain('unsafe-inline');
    expect((await fetch(`${server.url}/targets.json`)).headers.get('content-security-policy')).toContain(
      "default-src 'none'",
    );
  });
});
