// checkSandbox: a ramp-api sandbox says so on GET /sandbox; another service at the address, or none, is named as
// such instead of being called by accident.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { ConfigurationError } from '../core/errors.js';
import { checkSandbox, createSandboxClient } from './client.js';

const sandbox = useSandbox();
let other: LocalServer;
let page: LocalServer;
let closed: string;
beforeAll(async () => {
  // Another service: a JSON API that knows no /sandbox, and a static site that answers every path with a page.
  other = await startLocalServer((_req, res) => json(res, 404, { message: 'Not Found' }));
  page = await startLocalServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi'));
  const gone = await startLocalServer((_req, res) => json(res, 200, {}));
  closed = gone.url;
  await gone.close();
}, 60_000);
afterAll(async () => {
  await other?.close();
  await page?.close();
});

describe('checkSandbox', () => {
  it('returns what the sandbox says of itself on GET /sandbox', async () => {
    expect(await checkSandbox({ baseUrl: sandbox.url })).toEqual({ service: 'ramp-api-sandbox', origin: sandbox.url });
  });

  it('names another service at the address, whatever it answers', async () => {
    await expect(checkSandbox({ baseUrl: other.url })).rejects.toThrow(
      new ConfigurationError(
        `${other.url} is not a ramp-api sandbox: GET /sandbox answered 404, so another service answers there; start the sandbox (\`npx ramp-api-sandbox\` prints its address) and use the address it prints.`,
      ),
    );
    await expect(checkSandbox({ baseUrl: page.url })).rejects.toThrow(
      `${page.url} is not a ramp-api sandbox: GET /sandbox answered something else (ResponseFormatError), so another service answers there`,
    );
  });

  it('says when nothing answers', async () => {
    await expect(checkSandbox({ baseUrl: closed })).rejects.toThrow(
      `Nothing answers as a ramp-api sandbox at ${closed}: start the sandbox`,
    );
  });

  it('names SANDBOX_URL and the global setup when the address is empty or missing, as a test reading it gets it', async () => {
    for (const baseUrl of ['', '  ', undefined]) {
      const options = { baseUrl } as { baseUrl: string };
      const attempts: (() => unknown)[] = [() => createSandboxClient(options), () => checkSandbox(options)];
      for (const attempt of attempts) {
        const error = await Promise.resolve()
          .then(attempt)
          .then(
            () => expect.unreachable('no error'),
            (e: unknown) => e as Error,
          );
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.message).toMatch(/^`baseUrl` is required: the sandbox's address/);
        expect(error.message).toContain('SANDBOX_URL');
        expect(error.message).toContain('global setup');
      }
    }
  });

  it("leaves the control API's reference at /sandbox/docs", async () => {
    const docs = await fetch(`${sandbox.url}/sandbox/docs`);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    await docs.arrayBuffer();
  });
});
