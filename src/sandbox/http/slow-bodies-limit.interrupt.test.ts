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
  const send = (head: string, body = '') =>
    new Promise<number | string>((resolve) => {
      if (socket.destroyed) return resolve('closed');
      waiting = resolve;
      socket.write(head);
      // The body follows its head in a write of its own a moment later, as HTTP clients send it.
      if (body) setTimeout(() => socket.write(body), 20);
    });
  return {
    ask: () => send(`GET ${businessOperations.listBanks.path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`),
    /** A POST creating a tenant, its body sent after its head. */
    post: () => {
      const body = JSON.stringify({ name: 'Kept alive' });
      return send(
        `POST /sandbox/tenants HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      );
    },
  };
}

/**
 * The attack of ATTACKERS trickled bodies, reopened as the sandbox closes them (a byte a second into each), while
 * `during` runs; `opened()` counts the connections it has had closed so far, `open()` opens one more.
 */
async function underAttack<T>(url: string, during: (attack: { open(): void; closed(): number }) => Promise<T>) {
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
  const drip = setInterval(() => {
    for (const socket of held) if (!socket.destroyed) socket.write(' ');
    reopen();
  }, 1_000);
  try {
    reopen();
    await until(() => [...held].every((s) => !s.connecting), 'the attack to be open', 30_000);
    return await during({ open, closed: () => closed });
  } finally {
    clearInterval(drip);
    for (const socket of held) socket.destroy();
  }
}

it(`answers every request, on new connections and on a kept-alive one, while ${ATTACKERS} slow bodies are kept open at ulimit -n ${OPEN_FILES}`, async () => {
  const url = sandbox!.url;
  await underAttack(url, async (attack) => {
    const kept = keptAlive(url);
    const results: [string, number | string | null][] = [];
    for (let i = 0; i < REQUESTS; i++) {
      // A legitimate connection, then a burst of the attacker's: every one past the hold closes another.
      const before = attack.closed();
      const request = rawRequest(url, `GET ${businessOperations.listBanks.path} HTTP/1.1`, '', 5_000);
      for (let k = 0; k < BURST; k++) attack.open();
      results.push(['new connection', await request]);
      // The kept-alive connection sat idle while the burst came in.
      await until(() => attack.closed() - before >= BURST / 2, 'the burst to close connections', 10_000);
      results.push(['kept alive', await kept.ask()]);
    }
    const failed = results.filter(([, status]) => status !== 200);
    expect(failed, `${failed.length} of ${results.length} requests not answered 200`).toEqual([]);
  });
}, 180_000);

it(`answers kept-alive requests whose body follows their head while bursts of new connections close others, with ${ATTACKERS} slow bodies kept open at ulimit -n ${OPEN_FILES}`, async () => {
  const url = sandbox!.url;
  await underAttack(url, async (attack) => {
    const clients = Array.from({ length: 4 }, () => keptAlive(url));
    const results: (number | string)[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      // Each request's head is in, its body not yet, when the burst's connections each close another.
      const asked = clients.map((client) => client.post());
      for (let k = 0; k < BURST; k++) attack.open();
      results.push(...(await Promise.all(asked)));
    }
    const failed = results.filter((status) => status !== 201);
    expect(failed, `${failed.length} of ${results.length} requests not answered 201`).toEqual([]);
  });
}, 180_000);

/** Bytes a second of the honest upload: above the documented minimum pace (MIN_BODY_BYTES_PER_SECOND). */
const UPLOAD_RATE = 24 * 1024;

/** Sends `body` to `path` at UPLOAD_RATE, a tenth of a second's share at a time; resolves with the status or why none. */
function paced(url: string, path: string, body: string): Promise<number | string> {
  const { host, port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.add(socket);
  return new Promise((resolve) => {
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: number | string) => {
      clearInterval(timer);
      socket.destroy();
      resolve(result);
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status) settle(Number(status));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    socket.on('close', () => settle(`closed after ${sent} of ${body.length} bytes`));
    socket.once('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      timer = setInterval(() => {
        const next = body.slice(sent, sent + UPLOAD_RATE / 10);
        sent += next.length;
        if (next) socket.write(next);
      }, 100);
    });
  });
}

it(`answers an honest upload that keeps the documented pace, while ${ATTACKERS} slow bodies are kept open at ulimit -n ${OPEN_FILES}`, async () => {
  const url = sandbox!.url;
  const created = await fetch(`${url}/sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Honest upload' }),
  });
  const { clientId } = (await created.json()) as { clientId: string };
  // About 391 KB: the event's subject padded (each text at most 4096 characters), under the 1 MiB bound on a body.
  const body = JSON.stringify({
    tenantId: clientId,
    event: 'fiat.payout.completed',
    subject: Object.fromEntries(Array.from({ length: 97 }, (_, i) => [`field${i}`, 'x'.repeat(4000)])),
  });
  const status = await underAttack(url, async (attack) => {
    const upload = paced(url, '/sandbox/events', body);
    // The attacker keeps opening new connections while the upload arrives: each past the hold closes another.
    const burst = setInterval(() => {
      for (let k = 0; k < BURST; k++) attack.open();
    }, 1_000);
    try {
      return await upload;
    } finally {
      clearInterval(burst);
    }
  });
  expect(status).toBe(201);
}, 180_000);
