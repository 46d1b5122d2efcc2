// The webhook receiver answers each bad delivery with its documented status and keeps serving; the
// delivery schedule and event names come from the v1 description.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../../testing/raw-http.js';
import { readBundleJson } from '../../testing/repo.js';
import { createWebhookReceiver, type Delivery, deliverySchedule, eventNames } from './index.js';

const received: Delivery[] = [];
const onError = vi.fn();
const receiver = createWebhookReceiver({
  maxBodyBytes: 64 * 1024,
  ackWithinMs: 200,
  onError,
  handlers: {
    'operation.status_updated': (delivery) => {
      received.push(delivery);
    },
    'fiat.payout.completed': () => {
      throw new Error('database down');
    },
    'user.created': () => new Promise((resolve) => setTimeout(resolve, 1_000)),
  },
});

let server: Server;
let base: string;
/** Statuses the server actually answered, in order (a client may lose the answer when the socket closes). */
const answered: number[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    res.on('finish', () => answered.push(res.statusCode));
    receiver.node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const payload = { id: 'op-1', status: 'COMPLETED', person: { firstName: 'Laura', document: '1036654321' } };
async function post(path: string, body: string, contentType = 'application/json') {
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('webhook receiver (node:http)', () => {
  it('acknowledges a valid delivery with 200 and hands it to the typed handler', async () => {
    expect(await post('/ramp/operation.status_updated', JSON.stringify(payload))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect(received.at(-1)).toEqual({
      event: 'operation.status_updated',
      payload,
      idempotencyKey: expect.stringMatching(/^operation\.status_updated:[0-9a-f]{64}$/),
    });
  });

  it.each([
    // Each body carries the person's name, which no answer may echo.
    ['a wrong content type', 415, '/ramp/operation.status_updated', '{"firstName":"Laura"}', 'text/plain'],
    ['invalid JSON', 400, '/ramp/operation.status_updated', '{"firstName": "Laura', 'application/json'],
    ['a payload that is not an object', 422, '/ramp/operation.status_updated', '["Laura"]', 'application/json'],
    ['an unknown event in the URL', 404, '/ramp/operation.exploded', '{"firstName":"Laura"}', 'application/json'],
    ['an unknown event in the payload', 422, '/ramp', '{"event":"nope.Laura","firstName":"Laura"}', 'application/json'],
    ['no way to tell the event', 422, '/ramp', '{"firstName":"Laura"}', 'application/json'],
    ['a known event without a handler', 404, '/ramp/wallet.created', '{"firstName":"Laura"}', 'application/json'],
  ])('answers %s with %i', async (_what, status, path, body, type) => {
    const answer = await post(path, body, type);
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body)).not.toContain('Laura');
  });

  it('answers 405 to anything but POST, with Allow: POST', async () => {
    const answer = await fetch(`${base}/ramp/operation.status_updated`);
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'POST']);
    const fetchStyle = await createWebhookReceiver({ handlers: {} }).handle(
      new Request('http://127.0.0.1/ramp/operation.status_updated', { method: 'PUT' }),
    );
    expect([fetchStyle.status, fetchStyle.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('refuses a body over the limit, streamed without Content-Length, with 413, and keeps serving', async () => {
    const before = answered.length;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${base}/ramp/operation.status_updated`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 40 && req.write(chunk)) sent++;
        if (sent < 40) {
          req.once('drain', () => {
            sent++;
            pump();
          });
        } else req.end();
      };
      req.write('{"pad":"');
      pump();
    }).catch(() => {
      // The server may close the socket before the client finishes writing: take the status it sent.
      expect(answered.length, 'the server answered nothing').toBe(before + 1);
      return answered[before]!;
    });
    expect(status).toBe(413);
    expect((await post('/ramp/operation.status_updated', '{}')).status).toBe(200);
  });

  it('refuses a declared Content-Length over the limit without reading it', async () => {
    const answer = await receiver.receive({
      method: 'POST',
      url: new URL('http://h/ramp/operation.status_updated'),
      contentType: 'application/json',
      contentLength: 10 * 1024 * 1024,
      // Reading this body fails, and a failed read is answered 400: the 413 shows the receiver never read it.
      body: { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('must not be read')) }) },
    });
    expect(answer.status).toBe(413);
  });

  it('answers 500 when the handler throws, reports the event but not the payload, and keeps serving', async () => {
    onError.mockClear();
    expect((await post('/ramp/fiat.payout.completed', JSON.stringify(payload))).status).toBe(500);
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![1]).toEqual({ event: 'fiat.payout.completed' });
    expect(JSON.stringify(onError.mock.calls[0])).not.toContain('Laura');
    expect((await post('/ramp/operation.status_updated', '{}')).status).toBe(200);
  });

  it('acknowledges with 202 when the handler takes longer than ackWithinMs', async () => {
    const started = performance.now();
    expect((await post('/ramp/user.created', '{}')).status).toBe(202);
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('answers 408 to a sender too slow to deliver the body', async () => {
    const slow = createWebhookReceiver({ bodyTimeoutMs: 50, handlers: { 'user.created': () => {} } });
    const answer = await slow.receive({
      method: 'POST',
      url: new URL('http://h/user.created'),
      contentType: 'application/json',
      contentLength: null,
      body: (async function* () {
        yield new TextEncoder().encode('{');
        await new Promise((resolve) => setTimeout(resolve, 500));
        yield new TextEncoder().encode('}');
      })(),
    });
    expect(answer.status).toBe(408);
  });
});

describe('webhook receiver (web Request)', () => {
  it('handles a fetch-style Request, reading the event from ?event=', async () => {
    const response = await receiver.handle(
      new Request('https://you.example/hooks?event=operation.status_updated', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"n":1}',
      }),
    );
    expect(response.status).toBe(200);
    expect(received.at(-1)).toEqual({
      event: 'operation.status_updated',
      payload: { n: 1 },
      idempotencyKey: expect.stringMatching(/^operation\.status_updated:[0-9a-f]{64}$/),
    });
  });
});

describe('events and delivery schedule', () => {
  it('lists exactly the events of the v1 description', () => {
    expect([...eventNames]).toEqual(Object.keys(readBundleJson('v1').webhooks ?? {}));
  });

  it('computes the schedule from the description defaults and from a given retryConfig: max_attempts counts calls, the first included', () => {
    // The source: "Webhook attempts: 3 by default": the first call at 0, retries at 1 s and 5 s.
    expect(deliverySchedule()).toEqual({ timeoutMs: 30000, calls: 3, retryDelaysMs: [1000, 4000] });
    expect(
      deliverySchedule({ timeoutMs: 5000, retryConfig: { max_attempts: 4, initial_delay_ms: 500, multiplier: 3 } }),
    ).toEqual({
      timeoutMs: 5000,
      calls: 4,
      retryDelaysMs: [500, 1500, 4500],
    });
    expect(deliverySchedule({ retryConfig: { max_attempts: 1 } })).toEqual({
      timeoutMs: 30000,
      calls: 1,
      retryDelaysMs: [],
    });
  });
});

describe('the receiver answers every malformed request with a 4xx and keeps serving', () => {
  const json = 'application/json';
  it.each([
    ['the request target //', 'POST // HTTP/1.1'],
    ['a broken percent escape in the path', 'POST /hooks/%E0%A4%A HTTP/1.1'],
    ['a lone % in the path', 'POST /% HTTP/1.1'],
  ])('node: %s gets 400', async (_what, line) => {
    const status = await rawRequest(
      base,
      `${line}\r\nContent-Type: ${json}`,
      JSON.stringify({ event: 'operation.status_updated' }),
    );
    expect(status).toBe(400);
    // The host process is still up, and so is the server.
    expect((await post('/ramp/operation.status_updated', JSON.stringify(payload))).status).toBe(200);
  });

  it('handle(): a broken percent escape resolves to a 400 Response instead of rejecting', async () => {
    const answer = await receiver.handle(
      new Request('http://receiver.test/hooks/%E0%A4%A', {
        method: 'POST',
        headers: { 'content-type': json },
        body: JSON.stringify(payload),
      }),
    );
    expect(answer.status).toBe(400);
  });
});

describe('a resolver of the integrator that throws', () => {
  it('gets a 422 (cannot tell the event), not a 5xx that would make the service retry', async () => {
    const throwing = createWebhookReceiver({
      handlers: { 'operation.status_updated': () => {} },
      resolveEvent: () => {
        throw new Error('bad resolver');
      },
    });
    const answer = await throwing.handle(
      new Request('http://receiver.test/ramp/operation.status_updated', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(answer.status).toBe(422);
  });
});

describe('defences against an unsigned sender (the source shows only authType NONE)', () => {
  const SECRET = 'k3y-in-the-registered-url-0123456789';
  const handled: Delivery[] = [];
  const guarded = createWebhookReceiver({
    secret: SECRET,
    handlers: { 'operation.status_updated': (delivery) => void handled.push(delivery) },
  });
  const deliver = (url: string, body: string) =>
    guarded.handle(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  const event = { id: 'evt-7', event: 'operation.status_updated', data: { status: 'COMPLETED' } };

  it('refuses a forged event (no secret in the URL) with 401, without running the handler or echoing anything', async () => {
    const answer = await deliver('https://you.example/ramp/operation.status_updated', JSON.stringify(event));
    expect(answer.status).toBe(401);
    expect(await answer.text()).not.toContain(SECRET);
    expect(handled).toEqual([]);
  });

  it('refuses a tampered delivery (a secret one character off, or longer, or shorter) with 401', async () => {
    for (const wrong of [`${SECRET.slice(0, -1)}X`, `${SECRET}0`, SECRET.slice(0, 8), '']) {
      const answer = await deliver(
        `https://you.example/ramp/operation.status_updated?secret=${encodeURIComponent(wrong)}`,
        JSON.stringify(event),
      );
      expect(answer.status, wrong).toBe(401);
    }
    expect(handled).toEqual([]);
  });

  it('hands a delivery with the secret to the handler with an idempotency key, and skips its replay', async () => {
    const url = `https://you.example/ramp/operation.status_updated?secret=${SECRET}`;
    const first = await deliver(url, JSON.stringify(event));
    expect(first.status).toBe(200);
    const replay = await deliver(url, JSON.stringify(event));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    expect(handled).toHaveLength(1);
    expect(handled[0]!.idempotencyKey).toMatch(/^operation\.status_updated:[0-9a-f]{64}$/);
    // Another event (another id) is handled, under another key.
    expect((await deliver(url, JSON.stringify({ ...event, id: 'evt-8' }))).status).toBe(200);
    expect(handled).toHaveLength(2);
    expect(handled[1]!.idempotencyKey).not.toBe(handled[0]!.idempotencyKey);
  });

  it('runs the handler again for a delivery whose first handling failed (the sender retries it)', async () => {
    let calls = 0;
    const flaky = createWebhookReceiver({
      handlers: {
        'operation.status_updated': () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
      },
    });
    const send = () =>
      flaky.handle(
        new Request('https://you.example/ramp/operation.status_updated', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"status":"COMPLETED"}',
        }),
      );
    expect((await send()).status).toBe(500);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect(calls).toBe(2);
  });
});
