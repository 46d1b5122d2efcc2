// Events per second the sandbox delivers to a healthy local receiver: N events emitted with triggerEvent
// (32 at a time), timed until every delivery is recorded as delivered. `npm run bench:events [-- N]`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createV1Client, orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createWebhookReceiver } from '../../src/client/webhooks/index.js';
import { startSandbox } from '../../src/sandbox/server.js';

const total = Number(process.argv[2] ?? 2000);
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

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < total) {
      next += 1;
      await orThrow(
        control.triggerEvent({
          body: { tenantId: tenant.clientId, event: 'operation.created', subject: { id: String(next) } },
        }),
      );
    }
  }),
);
const emitted = performance.now();
await sandbox.events.worker.idle();
while (received < total) await new Promise((resolve) => setTimeout(resolve, 5));
const done = performance.now();
const { deliveries } = await orThrow(control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }));
const delivered = deliveries.filter((d) => d.status === 'delivered' && d.attempts.length === 1).length;
console.log(
  `${total} events emitted in ${((emitted - started) / 1000).toFixed(2)} s; all ${received} received (${delivered} delivered on the first attempt) in ${((done - started) / 1000).toFixed(2)} s: ${Math.round(total / ((done - started) / 1000))} events/s end to end`,
);
await sandbox.close();
receiver.close();
