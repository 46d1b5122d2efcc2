// Sandbox time is one time for every instance on a shared PostgreSQL database: `advanceClock` sent to one
// instance moves the others too, and the delivery queue they share keeps its promise of one call per event.
import { describe, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { startEventReceiver } from '../../testing/event-receiver.js';
import { storeNamed, useSandbox } from '../../testing/sandbox-fixture.js';

const postgres = storeNamed('PostgreSQL');

describe.skipIf(!postgres)('two sandbox instances on one PostgreSQL database share one clock', () => {
  const a = useSandbox({ store: postgres });
  const b = useSandbox({ shareWith: a });

  it('advanceClock on one instance moves the other, and a slow endpoint still gets each event once', async () => {
    // A healthy endpoint that takes a while to answer: long enough for another instance to claim the call again
    // if it thought the first call's lease had run out.
    const receiver = await startEventReceiver('healthy', { answerAfterMs: 300 });
    const seen = receiver.ids;
    try {
      const [controlA, controlB] = [createSandboxClient({ baseUrl: a.url }), createSandboxClient({ baseUrl: b.url })];
      const moved = await orThrow(controlA.advanceClock({ body: { seconds: 60 } }));
      // One second more on B is 61 seconds ahead of the real clock, not B's own 1.
      const onB = await orThrow(controlB.advanceClock({ body: { seconds: 1 } }));
      expect(onB.offsetSeconds).toBe(61);
      expect(Date.parse(onB.now) - Date.parse(moved.now)).toBeGreaterThanOrEqual(1_000);
      expect(Date.parse(onB.now) - Date.parse(moved.now)).toBeLessThan(5_000);

      const tenant = await orThrow(controlA.createTenant({ body: {} }));
      const v1 = createV1Client({ baseUrl: b.url, auth: { credentials: tenant.v1Credentials }, retry: false });
      const url = `${receiver.url}/hooks/user.updated`;
      await orThrow(
        v1.createIntegrationEndpoint({
          body: { name: 'slow', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'user.updated' },
        }),
      );
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          orThrow(
            (i % 2 ? controlB : controlA).triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.updated' } }),
          ),
        ),
      );
      for (let i = 0; i < 200 && seen.length < 20; i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 500));
      await Promise.all([a.events.worker.idle(), b.events.worker.idle()]);
      expect(seen).toHaveLength(20);
      expect(new Set(seen).size).toBe(20);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
