// Pages of a trusted origin (the documentation site's console) may call the sandbox from a browser: their
// preflight is answered and their answers carry the CORS headers; any other origin gets none, so a browser
// keeps that page from reading the sandbox's answers.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../testing/sandbox-fixture.js';

const SITE = 'http://127.0.0.1:9';
const sandbox = useSandbox({ allowedOrigins: [SITE] });

describe("the site's origin", () => {
  it('gets its preflight answered with the method and headers it asked for', async () => {
    const answer = await fetch(`${sandbox.url}/sandbox/tenants`, {
      method: 'OPTIONS',
      headers: {
        origin: SITE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
  });

  it('may read an answer, headers included', async () => {
    const answer = await fetch(`${sandbox.url}/sandbox/clock`, { headers: { origin: SITE } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(answer.headers.get('access-control-expose-headers')).toBe('*');
  });

  it('is the only one: another origin gets no CORS header, and its preflight no 204', async () => {
    const other = 'http://127.0.0.1:10';
    const read = await fetch(`${sandbox.url}/sandbox/clock`, { headers: { origin: other } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${sandbox.url}/sandbox/tenants`, {
      method: 'OPTIONS',
      headers: { origin: other, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).not.toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
