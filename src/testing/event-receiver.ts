// Test and load-test support: a webhook receiver on loopback that logs every call it gets (the URL called and
// the event id of the envelope) before it answers: 200 (healthy), 500, or by dropping the connection.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type ReceiverBehaviour = 'healthy' | 'error500' | 'drop';

export interface EventReceiver {
  url: string;
  /** `URL called|event id` -> when each call arrived (performance.now()). */
  calls: Map<string, number[]>;
  /** Event ids in the order the calls arrived. */
  ids: string[];
  close(): Promise<void>;
}

export async function startEventReceiver(
  behaviour: ReceiverBehaviour = 'healthy',
  options: { answerAfterMs?: number } = {},
): Promise<EventReceiver> {
  const calls = new Map<string, number[]>();
  const ids: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let id = '?';
      try {
        id = String((JSON.parse(text) as { id?: unknown }).id);
      } catch {
        // logged under '?': a check then finds a call with no event
      }
      ids.push(id);
      const key = `${url}${req.url ?? ''}|${id}`;
      calls.set(key, [...(calls.get(key) ?? []), performance.now()]);
      const answer = () =>
        behaviour === 'healthy'
          ? res.writeHead(200).end()
          : behaviour === 'error500'
            ? res.writeHead(500).end()
            : req.socket.destroy();
      if (options.answerAfterMs) setTimeout(answer, options.answerAfterMs);
      else answer();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    ids,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
