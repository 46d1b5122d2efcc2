// The loopback server of the benchmarks, run in a child process by bench-server.ts: keep-alive, the same JSON list for every GET,
// and a count of the requests it answered, reported to the parent on request over IPC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = process.env.BENCH_BODY ?? '[]';
const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
let answered = 0;
const server = createServer((_req, res) => {
  answered++;
  res.writeHead(200, headers).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message: { count?: boolean; stop?: boolean }) => {
  if (message.count) process.send?.({ answered });
  if (message.stop) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
