// Events per second the sandbox delivers to a healthy local receiver: N events emitted with triggerEvent
// (32 at a time), timed until the receiver has had every one, in TURNS turns on the harness (median and
// p10-p90 of the turns). `npm run bench:events [-- N [TURNS]]`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createV1Client, orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createWebhookReceiver } from '../../src/client/webhooks/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { sideBySide, spread } from './harness.js';

const total = Number(process.argv[2] ?? 2000);
const turns = Number(process.argv[3] ?? 4);
let received = 0;
const receiver = createServer(
  createWebhookReceiver({
    handlers: {
      'operation.created': () => {
        received += 1;
      },
    },
  }).node,
);
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/operation.created`;

const sandbox = await startSandbox({ memory: true });
const control = createSandboxClient({ baseUrl: sandbox.url });
const tenant = await orThrow(control.createTenant({ body: {} }));
const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
await orThrow(
  v1.createIntegrationEndpoint({
    body: { name: 'bench', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'operation.created' },
  }),
);

/** One turn: `count` events emitted (32 at a time), timed until the receiver has had each. */
async function turn(count: number) {
  const started = performance.now();
  const until = received + count;
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        next += 1;
        const subject = { id: `${started}-${next}` };
        await orThrow(
          control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'operation.created', subject } }),
        );
      }
    }),
  );
  const emittedMs = performance.now() - started;
  await sandbox.events.worker.idle();
  while (received < until) await new Promise((resolve) => setTimeout(resolve, 5));
  return { emittedMs, ms: performance.now() - started };
}

const perSecond = (t: { ms: number }) => (1000 * Math.ceil(total / turns)) / t.ms;
const [run] = await sideBySide([{ name: 'sandbox', turn: () => turn(Math.ceil(total / turns)) }], { turns }, perSecond);
const { deliveries } = await orThrow(control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }));
const delivered = deliveries.filter((d) => d.status === 'delivered' && d.attempts.length === 1).length;
const seconds = (key: 'ms' | 'emittedMs') => (run!.turns.reduce((n, t) => n + t[key], 0) / 1000).toFixed(2);
console.log(
  `${received} events emitted in ${seconds('emittedMs')} s; all ${received} received (${delivered} delivered on the first attempt) in ${seconds('ms')} s: ${spread(run!.figure, (n) => n.toFixed(0))} events/s end to end, per turn of ${Math.ceil(total / turns)}`,
);
await sandbox.close();
receiver.close();
