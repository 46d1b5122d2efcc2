// Test support: sends bytes a well-behaved client never would (`//` or a broken percent escape as the request
// target) over a raw TCP connection, and returns the status line's code, or null when the server answered nothing.
import { connect } from 'node:net';

export function rawRequest(origin: string, head: string, body = '', timeoutMs = 3000): Promise<number | null> {
  const { hostname, port } = new URL(origin);
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
      `${head}\r\nHost: ${hostname}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
