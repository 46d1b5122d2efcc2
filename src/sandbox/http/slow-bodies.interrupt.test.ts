// Slow request bodies keep no one out, against a real process whose open-files limit leaves it a small
// connection hold, over raw sockets: connections that send complete headers for an operation that reads its
// body before any token (the token call) and then trickle the body hold every slot, and a normal request is
// still answered, again and again while the attacker reopens; a trickled body is closed once it falls behind
// the minimum rate; a public operation reads only a small body.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessOperations } from '../../client/generated/business-meta.js';
import { v1Operations } from '../../client/generated/v1-meta.js';
import { rawRequest } from '../../testing/raw-http.js';
import { launchSandbox, type SandboxProcess } from '../../testing/sandbox-process.js';

/** `ulimit -n` of the sandbox: its hold is this less the 200 it keeps for itself. */
const OPEN_FILES = 256;
const HOLD = OPEN_FILES - 200;
const IDLE_TIMEOUT_S = 2;
let sandbox: SandboxProcess;
const sockets = new Set<Socket>();

beforeAll(async () => {
  sandbox = await launchSandbox(['--memory', '--idle-timeout', String(IDLE_TIMEOUT_S)], { openFiles: OPEN_FILES });
}, 90_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  if (!sandbox) return;
  sandbox.child.kill('SIGTERM');
  const killer = setTimeout(() => sandbox.child.kill('SIGKILL'), 10_000);
  await sandbox.exit.finally(() => clearTimeout(killer));
}, 30_000);

/** A connection that sent the whole head of a token call declaring a 1,000-byte body, and its first byte. */
function slowBody(): Promise<Socket> {
  const { host, port } = new URL(sandbox.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      sockets.delete(socket);
      resolve(socket);
    });
    socket.once('connect', () => {
      socket.write(
        `POST ${v1Operations.createClientToken.path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      resolve(socket);
    });
  });
}

/** Time (ms) for a normal request to be answered 200, or a failure naming what happened. */
async function normalRequest(limitMs: number): Promise<number> {
  const start = performance.now();
  const answer = await fetch(`${sandbox.url}${businessOperations.listBanks.path}`, {
    signal: AbortSignal.timeout(limitMs),
  });
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
  return performance.now() - start;
}

describe(`slow bodies, with a hold of ${HOLD} connections`, () => {
  it('answers normal requests while slow-body connections hold the limit and the attacker reopens them', async () => {
    let attacking = true;
    const held = new Set<Socket>();
    // Opens slow bodies until the attacker holds the whole limit (at most twice as many attempts).
    const keepHolding = async () => {
      for (let tries = 0; attacking && held.size < HOLD && tries < 2 * HOLD; tries++) {
        const socket = await slowBody();
        if (socket.destroyed) continue;
        held.add(socket);
        socket.once('close', () => held.delete(socket));
      }
    };
    // The attacker trickles a byte a second into each of its bodies and reopens what is closed.
    const drip = setInterval(() => {
      for (const socket of held) if (!socket.destroyed) socket.write(' ');
      void keepHolding();
    }, 1_000);
    try {
      await keepHolding();
      expect(held.size).toBe(HOLD);
      for (let i = 0; i < 5; i++) expect(await normalRequest(5_000)).toBeLessThan(5_000);
    } finally {
      attacking = false;
      clearInterval(drip);
      for (const socket of held) socket.destroy();
    }
  }, 120_000);

  it(`closes a connection whose body falls behind the minimum rate, within --idle-timeout (${IDLE_TIMEOUT_S} s) and the body's length at that rate`, async () => {
    const socket = await slowBody();
    const start = performance.now();
    const drip = setInterval(() => socket.destroyed || socket.write(' '), 200);
    const closed = await new Promise<number | null>((resolve) => {
      // Node checks its own limits once a second; room for a busy machine on top.
      const timer = setTimeout(() => resolve(null), (IDLE_TIMEOUT_S + 8) * 1000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(performance.now() - start);
      });
    });
    clearInterval(drip);
    expect(closed, 'a body trickled at 5 bytes a second was still being read after 10 s').not.toBeNull();
    expect(closed!).toBeGreaterThanOrEqual(IDLE_TIMEOUT_S * 500);
    expect(await normalRequest(5_000)).toBeLessThan(5_000);
  }, 60_000);

  it('reads at most a small body for an operation that needs no token (413 past it)', async () => {
    const body = JSON.stringify({ clientId: 'x', clientSecret: 'y'.repeat(64 * 1024) });
    const status = await rawRequest(
      sandbox.url,
      `POST ${v1Operations.createClientToken.path} HTTP/1.1\r\nContent-Type: application/json`,
      body,
      10_000,
    );
    expect(status).toBe(413);
  });
});
