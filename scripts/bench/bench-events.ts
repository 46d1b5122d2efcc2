// Events per second the sandbox delivers to a healthy local receiver: N events emitted with triggerEvent
// (32 at a time), timed until the receiver has had every one, in TURNS turns on the harness (median and
// p10-p90 of the turns). Beside it the floor, in the same turns: the receiver taking the same deliveries
// POSTed straight from this process, 32 at a time, each made unique. `npm run bench:events [-- N [TURNS]]`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createV1Client, orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { createWebhookReceiver } from '../../src/client/webhooks/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ratioText, type Summary, sideBySide, spread } from './harness.js';

const total = Number(process.argv[2] ?? 2000);
const turns = Number(process.argv[3] ?? 4);
let received = 0;
/** A delivery as the receiver got it from the sandbox, which the floor sends again. */
let delivered: Record<string, unknown> = {};
const receiver = createServer(
  createWebhookReceiver({
    handlers: {
      'operation.created': ({ payload }) => {
        received += 1;
        delivered = payload;
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

/** `count` calls of `call` (numbered from 1), 32 at a time. */
async function thirtyTwoAtATime(count: number, call: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) await call(++next);
    }),
  );
}

/** One turn: `count` events emitted, timed until the receiver has had each. */
async function turn(count: number) {
  const started = performance.now();
  const until = received + count;
  await thirtyTwoAtATime(count, (n) =>
    orThrow(
      control.triggerEvent({
        body: { tenantId: tenant.clientId, event: 'operation.created', subject: { id: `${started}-${n}` } },
      }),
    ),
  );
  const emittedMs = performance.now() - started;
  await sandbox.events.worker.idle();
  while (received < until) await new Promise((resolve) => setTimeout(resolve, 5));
  return { emittedMs, ms: performance.now() - started };
}

/** One turn of the floor: `count` deliveries POSTed straight to the receiver, each answered. */
async function floorTurn(count: number) {
  const started = performance.now();
  await thirtyTwoAtATime(count, async (n) => {
    const body = JSON.stringify({ ...delivered, benchFloor: `${started}-${n}` });
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (!answer.ok) throw new Error(`The receiver answered the floor's delivery with ${answer.status}.`);
    await answer.arrayBuffer();
  });
  return { emittedMs: 0, ms: performance.now() - started };
}

const perTurn = Math.ceil(total / turns);
const perSecond = (t: { ms: number }) => (1000 * perTurn) / t.ms;
await turn(1); // a delivery for the floor to send again
const [run, floor] = await sideBySide(
  [
    { name: 'sandbox', turn: () => turn(perTurn) },
    { name: 'floor', role: 'floor', turn: () => floorTurn(perTurn) },
  ],
  { turns },
  perSecond,
);
const { deliveries } = await orThrow(control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }));
const firstAttempt = deliveries.filter((d) => d.status === 'delivered' && d.attempts.length === 1).length;
const seconds = (key: 'ms' | 'emittedMs') => (run!.turns.reduce((n, t) => n + t[key], 0) / 1000).toFixed(2);
const rate = (s: Summary) => spread(s, (n) => n.toFixed(0));
console.log(
  `${perTurn * turns} events emitted in ${seconds('emittedMs')} s, all received in ${seconds('ms')} s (${firstAttempt} of ${deliveries.length} deliveries on the first attempt): ${rate(run!.figure)} events/s end to end, per turn of ${perTurn}`,
);
console.log(
  `The floor, the receiver taking the same deliveries straight from this process: ${rate(floor!.figure)} per second; the sandbox ${ratioText(run!.toFloor!)} of it, per turn`,
);
await sandbox.close();
receiver.close();
