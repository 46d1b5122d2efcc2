// Connections to the sandbox: no number of idle or trickling connections keeps a request out.
// Idle connections and connections that trickle their request (its headers or its body) are closed after a
// bounded time. Past a limit below the process's open-files limit, a new connection closes another: one that
// has sent no request for a second since it opened; else one of the largest of three groups, the connections that
// have sent no request yet and those kept alive between their requests (each group's longest waiting), and those
// whose request's body is arriving slower than the documented pace (the longest arriving; the body's group first
// on a tie). It is refused only when no connection is in any group: a request being served, or a body that keeps
// the pace, is never closed for another. So a flood of one kind closes its own kind: idle connections do not close a
// request being served, nor trickled bodies an honest upload, one about to send its request or a kept-alive one.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ConnectionLimits {
  /** Connections held at once; default the open-files limit less what the database and deliveries need. */
  max?: number;
  /** Time for a request's headers to arrive, from the connection (or the previous answer). Default 10 s. */
  headersTimeoutMs?: number;
  /** Time for a whole request (headers and body) to arrive. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Time a connection being served may stay silent (no bytes either way: a client that stops reading its
   * answer) before it is closed. Default 30 s. A connection not being served gets `headersTimeoutMs`.
   */
  idleTimeoutMs?: number;
}

/** Default of `headersTimeoutMs` (the command line's --idle-timeout): 10 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/**
 * The slowest a request body may arrive once `headersTimeoutMs` has passed since its headers: 16 KiB a
 * second, so a body of `n` bytes must be whole `headersTimeoutMs + n / 16 KiB` seconds after its headers (and
 * within `requestTimeoutMs` in all). A connection that falls behind is closed.
 */
const MIN_BODY_BYTES_PER_SECOND = 16 * 1024;

/**
 * How long a new connection has to send its request before it is the first to be closed for another (ms): a
 * client's request follows its connection at once.
 */
const FRESH_MS = 1_000;

/** A connection held: the requests being served on it. */
interface Held {
  serving: number;
}

/** File descriptors kept for everything that is not an incoming connection: the database, deliveries, Node. */
const RESERVED_FILES = 200;

/** The soft open-files limit of this process (`ulimit -n`), or null where it cannot be read (not Linux). */
function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

function defaultMaxConnections(): number {
  const limit = openFilesLimit();
  return limit === null ? 1000 : Math.max(16, Math.min(10_000, limit - RESERVED_FILES));
}

/** Applies the limits to `server`; returns the number of connections held (for tests and the log). */
export function guardConnections(server: Server, limits: ConnectionLimits = {}): { held(): number } {
  const max = limits.max ?? defaultMaxConnections();
  const headersTimeout = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  server.headersTimeout = headersTimeout;
  server.requestTimeout = limits.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = Math.min(5_000, server.headersTimeout);
  // Node checks the two timeouts above every 30 s by default: a connection could outlive them by that much.
  (server as Server & { connectionsCheckingInterval?: number }).connectionsCheckingInterval = 1_000;
  const idleTimeout = limits.idleTimeoutMs ?? 30_000;
  // Every connection, and three groups of them (a Map keeps insertion order, so each group's first is its
  // longest waiting): connections that have not sent a request yet, connections kept alive between requests, and
  // connections whose request's body is still arriving.
  const open = new Map<Socket, Held>();
  const waiting = new Map<Socket, number>();
  const kept = new Map<Socket, true>();
  const reading = new Map<Socket, Arriving>();
  const drop = (socket: Socket) => {
    open.delete(socket);
    waiting.delete(socket);
    kept.delete(socket);
    reading.delete(socket);
  };
  /** The connection to close for a new one, as the opening comment says. */
  const evictable = (): Socket | undefined => {
    const [first, since] = waiting.entries().next().value ?? [];
    if (first && since !== undefined && performance.now() - since > FRESH_MS) return first;
    const behind = bodiesBehind(reading);
    const groups = [behind, [...waiting.keys()], [...kept.keys()]];
    return groups.reduce((a, b) => (b.length > a.length ? b : a))[0];
  };
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      const oldest = evictable();
      if (!oldest) {
        socket.destroy();
        return;
      }
      drop(oldest);
      oldest.destroy();
    }
    open.set(socket, { serving: 0 });
    waiting.set(socket, performance.now());
    // Node's headersTimeout counts only once a request has begun: a connection that sends nothing needs this.
    socket.setTimeout(headersTimeout, () => socket.destroy());
    socket.once('close', () => drop(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    const state = open.get(socket);
    if (!state) return;
    state.serving++;
    waiting.delete(socket);
    kept.delete(socket);
    socket.setTimeout(idleTimeout);
    const stopWatching = req.complete ? undefined : watchBody(req, socket, headersTimeout);
    if (stopWatching) reading.set(socket, { req, since: performance.now(), bytes: socket.bytesRead });
    res.once('close', () => {
      stopWatching?.();
      reading.delete(socket);
      state.serving--;
      if (state.serving === 0 && open.has(socket) && !socket.destroyed) {
        kept.set(socket, true);
        socket.setTimeout(headersTimeout);
      }
    });
  });
  return { held: () => open.size };
}

/** A request whose body is arriving: since when (its headers), and the bytes its connection had read by then. */
interface Arriving {
  req: IncomingMessage;
  since: number;
  bytes: number;
}

/**
 * The bodies arriving slower than MIN_BODY_BYTES_PER_SECOND since their headers, the longest arriving first;
 * those complete are forgotten. A body that keeps the pace is never among them. Not the slowest first: a body
 * whose head has just come, with its body a moment behind, would be the slowest of all.
 */
function bodiesBehind(reading: Map<Socket, Arriving>): Socket[] {
  const now = performance.now();
  const behind: Socket[] = [];
  for (const [socket, { req, since, bytes }] of reading) {
    if (req.complete) {
      reading.delete(socket);
      continue;
    }
    const rate = ((socket.bytesRead - bytes) * 1000) / Math.max(now - since, 1);
    if (rate < MIN_BODY_BYTES_PER_SECOND) behind.push(socket);
  }
  // A Map keeps insertion order: the longest arriving first.
  return behind;
}

/** Bytes of the request's body declared by its Content-Length; null for a chunked one. */
function declaredLength(req: IncomingMessage): number | null {
  const length = Number(req.headers['content-length']);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/**
 * Closes `socket` when the body of `req` falls behind MIN_BODY_BYTES_PER_SECOND after `graceMs`: checked once a
 * second from then on, against the bytes the connection has received since the headers. Returns the stop.
 */
function watchBody(req: IncomingMessage, socket: Socket, graceMs: number): () => void {
  const start = performance.now();
  const startBytes = socket.bytesRead;
  const length = declaredLength(req);
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    if (req.complete || socket.destroyed) return;
    const late = (performance.now() - start - graceMs) / 1000;
    const due = late * MIN_BODY_BYTES_PER_SECOND;
    if (socket.bytesRead - startBytes < Math.min(due, length ?? due)) {
      socket.destroy();
      return;
    }
    timer = setTimeout(check, 1_000);
  };
  timer = setTimeout(check, graceMs);
  return () => clearTimeout(timer);
}
