// No request and no number of idle connections stalls the sandbox, against a real process whose
// open-files limit is 1,024 (a common default), over raw sockets: request targets that used to make a regular
// expression backtrack for minutes are answered at once while others are served; 2,000 idle sockets do not
// keep a normal request out, nor end a request being served; idle and trickling connections are closed
// after a bounded time (--idle-timeout, 10 s by default: 1 s, the least, here, on a sandbox of their own).
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { businessOperations } from '../../client/generated/business-meta.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { rawRequest } from '../../testing/raw-http.js';
import { launchSandbox, type SandboxProcess } from '../../testing/sandbox-process.js';
import { sandboxToken } from '../../testing/sandbox-users.js';

const OPEN_FILES = 1024;
let sandbox: SandboxProcess;
const sockets = new Set<Socket>();

/** A sandbox that closes silent and trickling connections after 1 s, for the last test. */
let brief: SandboxProcess | undefined;
const IDLE_TIMEOUT_S = 1;

beforeAll(async () => {
  const launched = await Promise.allSettled([
    launchSandbox(['--memory'], { openFiles: OPEN_FILES }),
    launchSandbox(['--memory', '--idle-timeout', String(IDLE_TIMEOUT_S)]),
  ]);
  if (launched[0].status === 'fulfilled') sandbox = launched[0].value;
  if (launched[1].status === 'fulfilled') brief = launched[1].value;
  for (const result of launched) if (result.status === 'rejected') throw result.reason;
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(
    [sandbox, brief].map(async (running) => {
      if (!running) return;
      running.child.kill('SIGTERM');
      // A sandbox stuck in a loop does not stop on SIGTERM: it is killed.
      const killer = setTimeout(() => running.child.kill('SIGKILL'), 10_000);
      await running.exit.finally(() => clearTimeout(killer));
    }),
  );
}, 30_000);

const hostname = '127.0.0.1';
/** A socket connected to a sandbox (or refused/closed by it); it stays in `sockets` until the end. */
function open(to: SandboxProcess = sandbox): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(to.url).port), hostname);
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => {
      sockets.delete(socket);
      resolve(socket);
    });
  });
}

/** Resolves with the time (ms) until the server closed the socket, or null when it was still open after `limitMs`. */
function closedWithin(socket: Socket, limitMs: number): Promise<number | null> {
  const start = performance.now();
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(() => resolve(null), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - start);
    });
  });
}

/** Time (ms) for a normal request to be answered 200, or a failure naming what happened. */
async function normalRequest(limitMs: number, to: SandboxProcess = sandbox): Promise<number> {
  const start = performance.now();
  const answer = await fetch(`${to.url}${businessOperations.listBanks.path}`, { signal: AbortSignal.timeout(limitMs) });
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
  return performance.now() - start;
}

describe(`the sandbox with an open-files limit of ${OPEN_FILES}`, () => {
  it('answers request targets that used to backtrack at once, with a 4xx, while other requests are answered meanwhile', async () => {
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const token = await sandboxToken(sandbox.url, 'business', tenant.businessCredentials);
    const auth = `Authorization: Bearer ${token}`;
    const id = tenant.clientId;
    const stalling = [
      `GET /${'a'.repeat(40)}! HTTP/1.1`,
      `GET /${'ab/'.repeat(30)}c! HTTP/1.1`,
      `DELETE /api/webhooks/${id}/%00 HTTP/1.1\r\n${auth}`,
      `GET /api/accounts/${id}..%2F HTTP/1.1\r\n${auth}`,
      `GET /api/b2b2b/${id}/wallet/custody/${id}..%2F..%2F..%2Fsandbox%2Freset HTTP/1.1\r\n${auth}`,
      `POST /sandbox/users/${id}..%2F/approve HTTP/1.1`,
    ];
    const answers = Promise.all(stalling.map((head) => rawRequest(sandbox.url, head, '', 10_000)));
    // Meanwhile: normal requests, each answered promptly.
    for (let i = 0; i < 5; i++) expect(await normalRequest(2_000)).toBeLessThan(2_000);
    const statuses = await answers;
    expect(
      statuses.map((s, i) => [
        stalling[i]!.split(' ').slice(0, 2).join(' ').slice(0, 60),
        s !== null && s >= 400 && s < 500,
      ]),
    ).toEqual(stalling.map((head) => [head.split(' ').slice(0, 2).join(' ').slice(0, 60), true]));
    // The sandbox still answers, and nothing was reset by the dot segments.
    expect(await normalRequest(2_000)).toBeLessThan(2_000);
    expect((await orThrow(control.listDeliveries({ params: { query: { tenant: id } } }))).deliveries).toEqual([]);
    expect(
      (await fetch(`${sandbox.url}/api/accounts/${id}`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  }, 60_000);

  it('answers a normal request while 2,000 idle sockets are held open, and finishes a request it was serving', async () => {
    // A request being served: its headers are in, its body arrives after the idle sockets.
    const body = JSON.stringify({ name: 'Served while flooded' });
    const served = await open();
    let answer = '';
    served.on('data', (chunk) => (answer += chunk.toString('latin1')));
    served.write(
      `POST /sandbox/tenants HTTP/1.1\r\nHost: ${new URL(sandbox.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setImmediate(r));
    const idle: Socket[] = [];
    for (let i = 0; i < 2_000; i += 100) idle.push(...(await Promise.all(Array.from({ length: 100 }, open))));
    expect(idle).toHaveLength(2_000);
    expect(await normalRequest(5_000)).toBeLessThan(5_000);
    served.write(body.slice(5));
    const answered = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the served request got no answer: ${answer}`)), 5_000);
      const check = () =>
        answer.includes('\r\n\r\n') && answer.includes('Served while flooded')
          ? void [clearTimeout(timer), resolve(answer)]
          : setTimeout(check, 20);
      check();
    });
    expect(answered).toMatch(/^HTTP\/1\.1 201 /);
    for (const socket of idle) socket.destroy();
  }, 90_000);

  it(`closes a connection that sends nothing, and one that trickles its headers, after --idle-timeout (${IDLE_TIMEOUT_S} s)`, async () => {
    const silent = await open(brief);
    const trickling = await open(brief);
    const head = `GET ${businessOperations.listBanks.path} HTTP/1.1\r\nHost: ${new URL(brief!.url).host}\r\nX-Slow: ${'z'.repeat(200)}`;
    let sent = 0;
    const drip = setInterval(() => {
      if (!trickling.destroyed && sent < head.length) trickling.write(head[sent++]!);
    }, 200);
    try {
      // Node checks the time limits once a second: closed within the limit and that second, plus room for a busy machine.
      const bound = (IDLE_TIMEOUT_S + 8) * 1000;
      const [silentClosed, tricklingClosed] = await Promise.all([
        closedWithin(silent, bound),
        closedWithin(trickling, bound),
      ]);
      expect(silentClosed, `a silent connection was still open after ${bound} ms`).not.toBeNull();
      expect(tricklingClosed, `a trickling connection was still open after ${bound} ms`).not.toBeNull();
      // Not long before the limit: it is the limit that closed them (measured from after both were opened, so
      // by as much as a busy machine took to open them less than the server's own count).
      expect(Math.min(silentClosed!, tricklingClosed!)).toBeGreaterThanOrEqual(IDLE_TIMEOUT_S * 500);
      expect(sent).toBeLessThan(head.length);
    } finally {
      clearInterval(drip);
    }
    expect(await normalRequest(2_000, brief)).toBeLessThan(2_000);
  }, 60_000);
});
