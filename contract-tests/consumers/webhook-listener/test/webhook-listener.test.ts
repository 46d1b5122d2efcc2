// The webhook listener against a sandbox: its server registered as the tenant's endpoint for two events, each event
// sent by the sandbox and logged by the listener's handler.
import type { AddressInfo } from 'node:net';
import { createV1Client, orThrow } from 'ramp-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsumerSandbox, startConsumerSandbox } from '../../../../src/testing/consumer-sandbox.js';

const SECRET = 'a-long-random-secret-for-the-listener-test';
let run: ConsumerSandbox;
let server: import('node:http').Server;
let receiverUrl: string;

beforeAll(async () => {
  run = await startConsumerSandbox('Webhook listener');
  process.env.RAMP_WEBHOOK_SECRET = SECRET;
  ({ server } = await import('../src/server.js'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const v1 = createV1Client({ baseUrl: run.url, auth: { credentials: run.tenant.v1Credentials } });
  for (const event of ['fiat.payout.completed', 'user.created'] as const)
    await orThrow(
      v1.createIntegrationEndpoint({
        body: {
          name: event,
          direction: 'OUTBOUND',
          url: `${receiverUrl}/ramp/${event}?secret=${SECRET}`,
          httpMethod: 'POST',
          triggerEvent: event,
        },
      }),
    );
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await run?.sandbox.close();
});

describe('the listener logs the events it receives', () => {
  it.each([
    ['fiat.payout.completed', 'payout completed'],
    ['user.created', expect.stringMatching(/^user\.created:/)],
  ])('%s', async (event, first) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await orThrow(run.control.triggerEvent({ body: { tenantId: run.tenant.clientId, event } }));
      await vi.waitFor(() => expect(log).toHaveBeenCalledWith(first, expect.any(String)), { timeout: 10_000 });
    } finally {
      log.mockRestore();
    }
  });
});
