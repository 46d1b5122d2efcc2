// The site server of `npm start` survives any request target a client can send.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../src/testing/raw-http.js';
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
});
