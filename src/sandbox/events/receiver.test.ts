// The sandbox's own receiver, /sandbox/receivers/accept, takes every delivery the sandbox itself can make: an
// event with the largest subject triggerEvent takes is delivered there with 200, and an event too large to
// deliver is refused when it is triggered, saying so, rather than failing at the receiver.
import { describe, expect, it, vi } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { MAX_BODY_BYTES } from '../pipeline/request-body.js';
import { MAX_DELIVERY_BYTES } from './store.js';

const sandbox = useSandbox();

/** A subject of about `bytes` bytes as JSON, in texts of 4,000 characters (the sandbox takes at most 4,096). */
const subjectOf = (bytes: number) =>
  Object.fromEntries(Array.from({ length: Math.ceil(bytes / 4_010) }, (_, i) => [`f${i}`, 'x'.repeat(4_000)]));

describe('/sandbox/receivers/accept', () => {
  it('takes the largest delivery the sandbox makes, and triggerEvent refuses one it could not deliver', async () => {
    expect(MAX_DELIVERY_BYTES).toBeGreaterThan(MAX_BODY_BYTES);
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    const v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials } });
    await orThrow(
      v1.createIntegrationEndpoint({
        body: {
          name: 'accept',
          direction: 'OUTBOUND',
          url: `${sandbox.url}/sandbox/receivers/accept`,
          httpMethod: 'POST',
          triggerEvent: 'operation.created',
        },
      }),
    );
    const trigger = (bytes: number) =>
      control.triggerEvent({
        body: { tenantId: tenant.clientId, event: 'operation.created', subject: subjectOf(bytes) },
      });
    // 24 KB, and as large as a request body allows (1 MiB, less the request's other fields).
    for (const bytes of [24_000, MAX_BODY_BYTES - 8_000]) {
      const { envelope } = await orThrow(trigger(bytes));
      await vi.waitFor(
        async () => {
          const { deliveries } = await orThrow(
            control.listDeliveries({ params: { query: { tenant: tenant.clientId } } }),
          );
          const mine = deliveries.filter((d) => d.eventId === envelope.id);
          expect(mine.map((d) => [d.status, d.attempts.at(-1)?.httpStatus])).toEqual([['delivered', 200]]);
        },
        { timeout: 15_000, interval: 100 },
      );
    }
    // Within a request's 1 MiB, numbers JSON writes out longer (1e20 is 100000000000000000000): refused at once.
    const numbers = Array(150_000).fill('1e20').join(',');
    const grown = await fetch(`${sandbox.url}/sandbox/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"tenantId":"${tenant.clientId}","event":"operation.created","subject":{"n":[${numbers}]}}`,
    });
    expect(grown.status).toBe(400);
    expect(await grown.json()).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/delivers at most/),
    });
  }, 60_000);
});
