// The site server of `npm start` survives any request target a client can send, and shows the live addresses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../src/testing/raw-http.js';
import { withLiveAddresses } from './live-addresses.js';
import { defaultBaseUrl } from './samples.js';
import { serveFolder, type StaticServer } from './static-server.js';

let root: string;
let server: StaticServer;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ramp-static-'));
  writeFileSync(join(root, 'index.html'), '<h1>ok</h1>');
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
