// End to end: the sandbox's events reach endpoints registered through the real API, served by
// createWebhookReceiver and by a deliberately failing server (500, then a timeout, then a refused
// connection), on the schedule deliverySchedule() computes, in sandbox time.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessClient, createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { createWebhookReceiver, type Delivery, deliverySchedule } from '../../client/webhooks/index.js';
import { fundedExampleUser } from '../../testing/sandbox-users.js';
import { createEventCatalog } from './store.js';

const catalog = createEventCatalog();
const checkPayload = catalog.check;
const documentedEvents = catalog.documented;

import { readFileSync } from 'node:fs';
import { forEachStore, sandboxInTest, type TestSandbox, useSandbox } from '../../testing/sandbox-fixture.js';
import { REFUSALS } from '../core/refusals.js';
import { eventMappingRows, MAPPING_FILE, renderMappingInto } from './table.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let sandbox: TestSandbox;
let control: ReturnType<typeof createSandboxClient>;
let received: Delivery[] = [];
let receiver: Server;
let receiverUrl: string;

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

const settle = () => sandbox.events.worker.idle();

describe('the event mapping', () => {
  it('names only events the v1 description lists, and the rendered table is current', () => {
    const documented = documentedEvents();
    expect(documented).toHaveLength(15);
    for (const row of eventMappingRows()) expect(documented, row.event).toContain(row.event);
    const text = readFileSync(MAPPING_FILE, 'utf8');
    expect(renderMappingInto(text), 'run npm run events:mapping').toBe(text);
  });

  it('refuses a payload that breaks the webhooks: schema', () => {
    expect(checkPayload('user.created', { event: 'user.created' })).toEqual([]);
    expect(checkPayload('user.created', 'not an object').length).toBeGreaterThan(0);
    expect(() => checkPayload('no.such_event', {})).toThrow(/lists no event/);
  });
});

forEachStore('delivery', (store) => {
  // The real clock stands still: sandbox time moves only by advanceClock, so attempt times are exact.
  const running = useSandbox({ store, realNow: () => T0 });
  beforeAll(async () => {
    sandbox = running;
    control = createSandboxClient({ baseUrl: sandbox.url });
    received = [];
    const keep = (d: Delivery) => void received.push(d);
    receiver = createServer(
      createWebhookReceiver({
        handlers: {
          'user.created': keep,
          'user.updated': keep,
          'fiat.payout.completed': keep,
          'operation.created': keep,
        },
      }).node,
    );
    receiverUrl = await listen(receiver);
  }, 30_000);
  afterAll(async () => {
    if (receiver) await stop(receiver);
  });

  it("delivers a flow's events to the receiver, retries a failing endpoint on the schedule, skips inactive ones, and redelivers", async () => {
    const tenant = await orThrow(control.createTenant({ body: { name: 'Events' } }));
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
    const business = createBusinessClient({
      baseUrl: sandbox.url,
      auth: { credentials: tenant.businessCredentials },
      retry: false,
    });

    // The failing server: 500, then no answer, then gone (connection refused).
    let calls = 0;
    const failing = createServer((_req, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(500).end();
      // the second call is left hanging
    });
    const failingUrl = await listen(failing);
    const failingPort = Number(new URL(failingUrl).port);

    const endpoint = (name: string, triggerEvent: any, url: string, isActive = true) =>
      orThrow(
        v1.createIntegrationEndpoint({
          body: { name, direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent, isActive },
        }),
      );
    for (const event of ['user.created', 'user.updated', 'fiat.payout.completed'] as const)
      await endpoint(`receiver-${event}`, event, `${receiverUrl}/ramp/${event}`);
    const flaky = await endpoint('flaky', 'fiat.payout.completed', `${failingUrl}/ramp/fiat.payout.completed`);
    const inactive = await endpoint(
      'inactive',
      'fiat.payout.completed',
      `${receiverUrl}/ramp/fiat.payout.completed`,
      false,
    );
    const deleted = await orThrow(
      control.createBusinessWebhook({
        body: { clientId: tenant.clientId, url: `${receiverUrl}/business`, process: 'ramp' },
      }),
    );
    await orThrow(business.deleteWebhook({ params: { path: { clientId: tenant.clientId, webhook_id: deleted.id } } }));

    const { userId, accountId } = await fundedExampleUser(sandbox.url, tenant, 100_000);
    const payout = await orThrow(
      v1.createPayout({
        params: { path: { user_id: userId } },
        body: { amount: 50_000, currency: 'COP', destinationId: accountId, paymentMethod: 'BREB' },
      }),
    );
    await orThrow(control.completePayout({ params: { path: { payoutId: payout.id } } }));
    await settle();

    // The receiver's typed handlers got each event once, with the envelope and the resource.
    expect(received.map((d) => d.event).sort()).toEqual(['fiat.payout.completed', 'user.created', 'user.updated']);
    const completed = received.find((d) => d.event === 'fiat.payout.completed')!.payload as any;
    expect(completed).toMatchObject({
      event: 'fiat.payout.completed',
      tenantId: tenant.clientId,
      createdAt: new Date(T0).toISOString(),
      data: { id: payout.id, status: 'COMPLETED' },
    });

    const log = async (endpointId: string) =>
      (await orThrow(control.listDeliveries({ params: { query: { endpoint: endpointId } } }))).deliveries;
    expect((await log(inactive.id)).map((d) => d.status)).toEqual(['skipped']);
    expect((await log(deleted.id)).map((d) => [d.event, d.status])).toEqual([['fiat.payout.completed', 'skipped']]);

    // The failing endpoint: 500 at T0, then each retry when its delay has passed in sandbox time.
    // max_attempts counts calls (the source: "Webhook attempts: 3 by default"): at 0, 1 s and 5 s.
    const schedule = deliverySchedule();
    expect(schedule.retryDelaysMs).toEqual([1000, 4000]);
    const advance = async (ms: number, wait = true) => {
      await orThrow(control.advanceClock({ body: { seconds: ms / 1000 } }));
      await new Promise((r) => setTimeout(r, 60));
      if (wait) await settle();
    };
    await advance(schedule.retryDelaysMs[0]! - 1);
    expect((await log(flaky.id))[0]!.attempts).toHaveLength(1);
    await advance(1, false); // the second call, left hanging
    await advance(schedule.timeoutMs); // times out in sandbox time
    await stop(failing); // from now on the port refuses connections
    await advance(schedule.retryDelaysMs[1]!);
    // The third call was the last: however long the sandbox waits, there is no fourth.
    await advance(16_000);
    const [flakyDelivery] = await log(flaky.id);
    expect(flakyDelivery!.status).toBe('failed');
    const attempts = flakyDelivery!.attempts;
    expect(attempts.map((a) => [a.attempt, a.outcome, a.httpStatus])).toEqual([
      [1, 'http_status', 500],
      [2, 'timeout', null],
      [3, 'connection_error', null],
    ]);
    // Each retry starts exactly its delay after the previous call ended.
    for (let i = 1; i < attempts.length; i++) {
      expect(Date.parse(attempts[i]!.time) - Date.parse(attempts[i - 1]!.finishedAt), `retry ${i}`).toBe(
        schedule.retryDelaysMs[i - 1],
      );
    }
    expect(Date.parse(attempts[1]!.finishedAt) - Date.parse(attempts[1]!.time)).toBe(schedule.timeoutMs);
    expect(calls).toBe(2);

    // Replay: the endpoint is back; redeliver sends the same envelope once more.
    let replayed: unknown;
    const back = createServer((req, res) => {
      let text = '';
      req
        .on('data', (c) => (text += c))
        .on('end', () => {
          replayed = JSON.parse(text);
          res.writeHead(204).end();
        });
    });
    await listen(back, failingPort);
    await orThrow(control.redeliver({ params: { path: { deliveryId: flakyDelivery!.id } } }));
    await new Promise((r) => setTimeout(r, 60));
    await settle();
    const [after] = await log(flaky.id);
    expect(after!.status).toBe('delivered');
    expect(after!.attempts.at(-1)).toMatchObject({ attempt: 4, outcome: 'delivered', httpStatus: 204 });
    expect((replayed as any).id).toBe(completed.id);
    await stop(back);

    // No duplicate and no lost delivery: each of the receiver's deliveries was made once.
    const all = (await orThrow(control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }))).deliveries;
    expect(
      all.filter((d) => d.url.startsWith(receiverUrl) && d.status === 'delivered').map((d) => d.attempts.length),
    ).toEqual([1, 1, 1]);
    expect(received).toHaveLength(3);
  }, 30_000);

  it('sends a business webhook the events of its process, and nothing more once it is deleted', async () => {
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const business = createBusinessClient({
      baseUrl: sandbox.url,
      auth: { credentials: tenant.businessCredentials },
      retry: false,
    });
    const gone = createServer();
    const goneUrl = await listen(gone);
    await stop(gone); // connection refused from now on
    const hook = await orThrow(
      control.createBusinessWebhook({
        body: { clientId: tenant.clientId, url: `${goneUrl}/business`, process: 'ramp' },
      }),
    );
    await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.updated' } })); // compliance: not this hook's
    await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'fiat.payout.completed' } }));
    await settle();
    const log = async () =>
      (await orThrow(control.listDeliveries({ params: { query: { endpoint: hook.id } } }))).deliveries;
    expect((await log()).map((d) => [d.event, d.status, d.attempts.map((a) => a.outcome)])).toEqual([
      ['fiat.payout.completed', 'pending', ['connection_error']],
    ]);
    await orThrow(business.deleteWebhook({ params: { path: { clientId: tenant.clientId, webhook_id: hook.id } } }));
    await orThrow(control.advanceClock({ body: { seconds: 60 } }));
    await new Promise((r) => setTimeout(r, 60));
    await settle();
    expect((await log()).map((d) => [d.status, d.attempts.length])).toEqual([['skipped', 1]]);
  });

  it('triggerEvent emits any documented event for a tenant, and refuses unknown names', async () => {
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
    await orThrow(
      v1.createIntegrationEndpoint({
        body: {
          name: 'ops',
          direction: 'OUTBOUND',
          url: `${receiverUrl}/ramp/operation.created`,
          httpMethod: 'POST',
          triggerEvent: 'operation.created',
        },
      }),
    );
    const before = received.length;
    const triggered = await orThrow(
      control.triggerEvent({
        body: { tenantId: tenant.clientId, event: 'operation.created', subject: { id: 'op-1' } },
      }),
    );
    expect(triggered.deliveries).toBe(1);
    await settle();
    expect(received.slice(before).map((d) => [d.event, (d.payload as any).data])).toEqual([
      ['operation.created', { id: 'op-1' }],
    ]);
    const unknown = await control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'no.such_event' } });
    expect(unknown.response.status).toBe(400);
  });
});

// Deliveries stay where they were sent: a redirect is a failed attempt and is never followed, an
// endpoint's answer is read only up to a bound, link-local addresses are refused at registration (other
// networks than loopback and private ones only when the sandbox is told), and delivery settings stay within
// the bounds the description states.
// One sandbox (PGlite, its real clock standing still) for the two blocks below: each test has tenants of its own.
const box = useSandbox({ realNow: () => T0 });

describe('deliveries stay where they were sent', () => {
  let ctl: ReturnType<typeof createSandboxClient>;
  const servers: Server[] = [];
  const serve = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler!);
    servers.push(server);
    return listen(server);
  };
  beforeAll(() => {
    ctl = createSandboxClient({ baseUrl: box.url });
  });
  afterAll(async () => {
    for (const server of servers) await stop(server);
  });

  async function tenantWith(url: string, extra: Record<string, unknown> = {}) {
    const tenant = await orThrow(ctl.createTenant({ body: {} }));
    const v1 = createV1Client({ baseUrl: box.url, auth: { credentials: tenant.v1Credentials }, retry: false });
    const endpoint = await v1.createIntegrationEndpoint({
      body: {
        name: 'e',
        direction: 'OUTBOUND',
        url,
        httpMethod: 'POST',
        triggerEvent: 'user.created',
        ...extra,
      } as never,
    });
    return { tenant, v1, endpoint };
  }
  const attemptsOf = async (tenantId: string) =>
    (await orThrow(ctl.listDeliveries({ params: { query: { tenant: tenantId } } }))).deliveries[0]!.attempts;

  it.each([301, 302, 303, 307, 308])(
    'records a %i as a failed attempt and never follows it, to another origin or to itself',
    async (status) => {
      let elsewhere = 0;
      const other = await serve((req, res) => {
        elsewhere++;
        req.resume();
        res.writeHead(200).end();
      });
      let calls = 0;
      const self = await serve((req, res) => {
        calls++;
        req.resume();
        res.writeHead(status, { location: calls % 2 ? `${other}/stolen` : `/again` }).end();
      });
      const { tenant } = await tenantWith(`${self}/ramp/user.created`);
      await orThrow(ctl.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
      await box.events.worker.idle();
      expect((await attemptsOf(tenant.clientId)).map((a) => [a.outcome, a.httpStatus])).toEqual([
        ['http_status', status],
      ]);
      // Each retry falls due its delay after the previous call: one move of the clock per retry.
      for (let retry = 1; retry < deliverySchedule().calls; retry++) {
        await orThrow(ctl.advanceClock({ body: { seconds: 3600 } }));
        await box.events.worker.idle();
      }
      const attempts = await attemptsOf(tenant.clientId);
      expect(attempts.length).toBe(deliverySchedule().calls);
      expect(calls, 'calls to the registered endpoint').toBe(attempts.length);
      expect(elsewhere, 'calls to where the redirect pointed').toBe(0);
    },
  );

  it("reads at most a bounded part of an endpoint's answer (an endpoint answering 200 with 256 MiB)", async () => {
    let written = 0;
    const chunk = Buffer.alloc(1024 * 1024, 120);
    const huge = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const more = () => {
        while (written < 256 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const { tenant } = await tenantWith(`${huge}/ramp/user.created`);
    await orThrow(ctl.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
    await box.events.worker.idle();
    expect((await attemptsOf(tenant.clientId)).map((a) => [a.outcome, a.httpStatus])).toEqual([['delivered', 200]]);
    expect(written, 'bytes the endpoint got to send before the sandbox stopped reading').toBeLessThan(32 * 1024 * 1024);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://169.254.1.1:8080/hook'],
    ['http://[fe80::1]/hook'],
    ['http://[::ffff:169.254.169.254]/hook'],
    ['http://2852039166/hook'],
    ['http://8.8.8.8/hook'],
    ['ftp://127.0.0.1/hook'],
  ])('refuses an endpoint at %s at registration (422; 400 for a Business webhook)', async (url) => {
    const { endpoint, tenant } = await tenantWith(url);
    expect(endpoint.response.status, JSON.stringify(endpoint.error)).toBe(422);
    expect(endpoint.error).toMatchObject({ error: REFUSALS.endpointNotAllowed.code });
    const hook = await ctl.createBusinessWebhook({ body: { clientId: tenant.clientId, url, process: 'ramp' } });
    expect(hook.response.status).toBe(400);
  });

  it('accepts loopback and private addresses by default, and other networks only when the sandbox is told', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://172.20.0.1/hook',
      'http://[::1]:9/hook',
      'http://[fd00::1]/hook',
      'https://hooks.example/ramp',
    ]) {
      expect((await tenantWith(url)).endpoint.response.status, url).toBe(201);
    }
    const open = await sandboxInTest({ endpointNetworks: ['loopback', '8.8.8.0/24'] });
    const tenant = await orThrow(createSandboxClient({ baseUrl: open.url }).createTenant({ body: {} }));
    const v1 = createV1Client({ baseUrl: open.url, auth: { credentials: tenant.v1Credentials }, retry: false });
    const register = (url: string) =>
      v1.createIntegrationEndpoint({ body: { name: url, direction: 'OUTBOUND', url, httpMethod: 'POST' } });
    expect((await register('http://8.8.8.8/hook')).response.status).toBe(201);
    expect((await register('http://10.1.2.3/hook')).response.status).toBe(422);
    expect((await register('http://169.254.169.254/hook')).response.status).toBe(422);
  });

  it.each([
    [{ timeoutMs: 1.5 }],
    [{ timeoutMs: 0 }],
    [{ timeoutMs: 1e9 }],
    [{ retryConfig: { max_attempts: 2_000_000 } }],
    [{ retryConfig: { max_attempts: 0 } }],
    [{ retryConfig: { initial_delay_ms: 1e17 } }],
    [{ retryConfig: { initial_delay_ms: -1 } }],
    [{ retryConfig: { multiplier: 1e6 } }],
    [{ retryConfig: { multiplier: 0.5 } }],
  ])('refuses delivery settings outside the bounds the description states: %j', async (settings) => {
    const { endpoint, tenant } = await tenantWith('http://127.0.0.1:9/hook', settings);
    expect(endpoint.response.status).toBe(422);
    // Nothing was registered: the tenant's events still go out (a bad endpoint once made each of them a 500).
    expect(
      (await ctl.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } })).response.status,
    ).toBe(201);
  });
});

describe("tenants apart: one tenant's failing endpoints do not hold up another's deliveries", () => {
  it("keeps a bounded number of one tenant's calls in flight, and delivers another tenant's event meanwhile", async () => {
    const held = new Set<import('node:http').ServerResponse>();
    let open = 0;
    let most = 0;
    const hanging = createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      held.add(res);
      res.once('close', () => open--);
      req.resume();
    });
    const hangingUrl = await listen(hanging);
    const got: string[] = [];
    const healthy = createServer((req, res) => {
      got.push(req.url ?? '');
      req.resume().on('end', () => res.writeHead(200).end());
    });
    const healthyUrl = await listen(healthy);
    try {
      const ctl = createSandboxClient({ baseUrl: box.url });
      const noisy = await orThrow(ctl.createTenant({ body: {} }));
      const v1 = createV1Client({ baseUrl: box.url, auth: { credentials: noisy.v1Credentials }, retry: false });
      for (let i = 0; i < 10; i++)
        await orThrow(
          v1.createIntegrationEndpoint({
            body: {
              name: `slow-${i}`,
              direction: 'OUTBOUND',
              url: `${hangingUrl}/ramp/user.created`,
              httpMethod: 'POST',
              triggerEvent: 'user.created',
            },
          }),
        );
      for (let i = 0; i < 20; i++)
        await orThrow(ctl.triggerEvent({ body: { tenantId: noisy.clientId, event: 'user.created' } }));
      const quiet = await orThrow(ctl.createTenant({ body: {} }));
      const quietV1 = createV1Client({ baseUrl: box.url, auth: { credentials: quiet.v1Credentials }, retry: false });
      await orThrow(
        quietV1.createIntegrationEndpoint({
          body: {
            name: 'ok',
            direction: 'OUTBOUND',
            url: `${healthyUrl}/ramp/user.created`,
            httpMethod: 'POST',
            triggerEvent: 'user.created',
          },
        }),
      );
      await orThrow(ctl.triggerEvent({ body: { tenantId: quiet.clientId, event: 'user.created' } }));
      for (let waited = 0; got.length === 0 && waited < 5_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      expect(got, "the quiet tenant's event, while 200 of the noisy tenant's calls wait").toEqual([
        '/ramp/user.created',
      ]);
      expect(most, "the noisy tenant's calls in flight at once").toBeLessThanOrEqual(8);
      expect(most).toBeGreaterThan(0);
    } finally {
      for (const res of held) res.destroy();
      await stop(hanging);
      await stop(healthy);
    }
  }, 30_000);
});
