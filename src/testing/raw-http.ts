// Test support: sends bytes a well-behaved client never would (`//` or a broken percent escape as the request
// target, a Host, Origin or Sec-Fetch-* header of the test's choosing) over a raw TCP connection, and returns
// the status line's code (rawRequest) or the whole answer (rawExchange), or null when the server answered nothing.
import { connect } from 'node:net';

export function rawRequest(origin: string, head: string, body = '', timeoutMs = 3000): Promise<number | null> {
  const { hostname, host, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve(match ? Number(match[1]) : null);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(
      `${head}\r\nHost: ${host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/**
 * One request over its own connection, with exactly the headers given (`host` defaults to the origin's
 * host:port; Content-Length is added for a body), read until the server closes the connection.
 */
export function rawExchange(
  origin: string,
  request: { method?: string; target: string; headers?: Record<string, string>; body?: string },
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  const { hostname, host, port } = new URL(origin);
  const headers: Record<string, string> = { host, ...request.headers, connection: 'close' };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${request.method ?? 'GET'} ${request.target} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (end < 0 || !match) return reject(new Error(`no answer to ${request.method ?? 'GET'} ${request.target}`));
      const answer: RawAnswer = { status: Number(match[1]), headers: {}, body: text.slice(end + 4) };
      for (const line of text.slice(0, end).split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        answer.headers[name] = answer.headers[name] === undefined ? value : `${answer.headers[name]}, ${value}`;
      }
      resolve(answer);
    });
    socket.write(`${request.method ?? 'GET'} ${request.target} HTTP/1.1\r\n${head}\r\n${request.body ?? ''}`);
  });
}

/** The pieces statusAfterWholeBody writes a body in. */
const UPLOAD_PIECE = 64 * 1024;

/**
 * A client that writes its whole request, `body` included, before it reads anything (as many do): the answer's
 * status once the write has completed, or the error that ended the exchange (`ECONNRESET`, `EPIPE`: the server
 * closed the connection while the body was being written, and its answer, if any, was lost).
 */
export function statusAfterWholeBody(
  origin: string,
  request: { method: string; target: string; headers?: Record<string, string>; body: Buffer },
  timeoutMs = 15_000,
): Promise<number | string> {
  const { hostname, host, port } = new URL(origin);
  const headers: Record<string, string> = {
    host,
    'content-type': 'application/json',
    ...request.headers,
    'content-length': String(request.body.length),
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const done = (result: number | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    socket.on('close', () => done(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1] ?? 'closed without an answer'));
    // Only once the body is written is the answer read.
    const read = () =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
        if (status && received.includes('\r\n\r\n')) done(Number(status[1]));
      });
    // The body streamed as an upload is, a piece at a time, each once the previous one is written.
    const writeFrom = (at: number) => {
      if (at >= request.body.length) return read();
      socket.write(request.body.subarray(at, at + UPLOAD_PIECE), (error) => {
        if (!error) setImmediate(() => writeFrom(at + UPLOAD_PIECE));
      });
    };
    socket.write(`${request.method} ${request.target} HTTP/1.1\r\n${head}\r\n`);
    writeFrom(0);
  });
}
