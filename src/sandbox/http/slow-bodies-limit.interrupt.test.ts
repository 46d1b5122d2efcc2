// Slow bodies at the open-files limit the security guide states (`ulimit -n 1024`, a hold of 824 connections):
// an attacker keeps ATTACKERS connections trickling bodies into the token call, which needs no token, more than
// the hold, reopening each one the sandbox closes. Legitimate requests are answered every time, on a new
// connection each and on one kept-alive connection between them: a new connection closes one that is still
// trickling its body rather than one that has not sent its request yet, or that has been served already.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { businessOperations } from '../../client/generated/business-meta.js';
import { v1Operations } from '../../client/generated/v1-meta.js';
import { rawRequest } from '../../testing/raw-http.js';
import { launchSandbox, type SandboxProcess, stopSandbox } from '../../testing/sandbox-process.js';
import { until } from '../../testing/until.js';

const OPEN_FILES = 1024;
const ATTACKERS = 900;
const REQUESTS = 20;
/** New connections the attacker opens at once after each legitimate one. */
const BURST = 100;
let sandbox: SandboxProcess | undefined;
const sockets = new Set<Socket>();

beforeAll(async () => {
  sandbox = await launchSandbox(['--memory', '--idle-timeout', '2'], { openFiles: OPEN_FILES });
}, 90_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await stopSandbox(sandbox);
}, 30_000);

/** A connection that sent the head of a token call declaring a 1,000-byte body, and its first byte. */
function slowBody(url: string): Socket {
  const { host, port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.add(socket);
  socket.on('error', () => undefined);
  socket.once('close', () => sockets.delete(socket));
  socket.once('connect', () =>
    socket.write(
      `POST ${v1Operations.createClientToken.path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    ),
  );
  return socket;
}

/** One kept-alive connection: `ask()` sends a request on it and resolves with the status, or what went wrong. */
function keptAlive(url: string) {
  const { host, port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.add(socket);
  let received = '';
  let waiting: ((result: number | string) => void) | undefined;
  const settle = (result: number | string) => {
    waiting?.(result);
    waiting = undefined;
  };
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    const end = received.indexOf('\r\n\r\n');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received)?.[1] ?? Number.NaN);
    if (end < 0 || received.length < end + 4 + length) return;
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
    received = received.slice(end + 4 + length);
    settle(status);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
  socket.on('close', () => settle('closed'));
  return {
    ask: () =>
      new Promise<number | string>((resolve) => {
        if (socket.destroyed) return resolve('closed');
        waiting = resolve;
        socket.write(`GET ${businessOperations.listBanks.path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      }),
  };
}

it(`answers every request, on new connections and on a kept-alive one, while ${ATTACKERS} slow bodies are kept open at ulimit -n ${OPEN_FILES}`, async () => {
  const url = sandbox!.url;
  const held = new Set<Socket>();
  let closed = 0;
  const open = () => {
    const socket = slowBody(url);
    held.add(socket);
    socket.once('close', () => {
      held.delete(socket);
      closed++;
    });
  };
  const reopen = () => {
    while (held.size < ATTACKERS) open();
  };
  // A byte a second into each body; what the sandbox closes is reopened.
  const drip = setInterval(() => {
    for (const socket of held) if (!socket.destroyed) socket.write(' ');
    reopen();
  }, 1_000);
  try {
    reopen();
    await until(() => [...held].every((s) => !s.connecting), 'the attack to be open', 30_000);
    const kept = keptAlive(url);
    const results: [string, number | string | null][] = [];
    for (let i = 0; i < REQUESTS; i++) {
      // A legitimate connection, then a burst of the attacker's: every one past the hold closes another.
      const before = closed;
      const request = rawRequest(url, `GET ${businessOperations.listBanks.path} HTTP/1.1`, '', 5_000);
      for (let k = 0; k < BURST; k++) open();
      results.push(['new connection', await request]);
      // The kept-alive connection sat idle while the burst came in.
      await until(() => closed - before >= BURST / 2, 'the burst to close connections', 10_000);
      results.push(['kept alive', await kept.ask()]);
    }
    const failed = results.filter(([, status]) => status !== 200);
    expect(failed, `${failed.length} of ${results.length} requests not answered 200`).toEqual([]);
  } finally {
    clearInterval(drip);
    for (const socket of held) socket.destroy();
  }
}, 180_000);
