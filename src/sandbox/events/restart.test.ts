// A sandbox killed with SIGKILL during a backoff delivers the remaining attempts when it comes back on the
// same --data: pending retries live in the database, not in memory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox } from '../../testing/sandbox-process.js';
import { until } from '../../testing/until.js';

const started: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), 'ramp-sandbox-events-'));
const calls: unknown[] = [];
const endpoint = createServer((req, res) => {
  let text = '';
  req
    .on('data', (c) => (text += c))
    .on('end', () => {
      calls.push(JSON.parse(text));
      res.writeHead(calls.length === 1 ? 503 : 200).end();
    });
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

it('continues a pending retry after SIGKILL and restart on the same --data', async () => {
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/ramp/user.created`;
  const data = join(work, 'data');

  const first = await launchSandbox(['--data', data]);
  started.push(first.child);
  const control = createSandboxClient({ baseUrl: first.url });
  const tenant = await orThrow(control.createTenant({ body: {} }));
  const v1 = createV1Client({ baseUrl: first.url, auth: { credentials: tenant.v1Credentials }, retry: false });
  // A long first delay: the retry cannot fall due in real time while the test runs.
  await orThrow(
    v1.createIntegrationEndpoint({
      body: {
        name: 'e',
        direction: 'OUTBOUND',
        url,
        httpMethod: 'POST',
        triggerEvent: 'user.created',
        retryConfig: { max_attempts: 3, initial_delay_ms: 600_000, multiplier: 2 },
      },
    }),
  );
  await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
  await until(
    async () => (await orThrow(control.listDeliveries({}))).deliveries[0]?.attempts.length === 1,
    'the first attempt',
  );
  first.child.kill('SIGKILL');
  await first.exit;
  expect(calls).toHaveLength(1);

  const second = await launchSandbox(['--data', data]);
  started.push(second.child);
  const again = createSandboxClient({ baseUrl: second.url });
  expect((await orThrow(again.listDeliveries({}))).deliveries.map((d) => d.status)).toEqual(['pending']);
  await orThrow(again.advanceClock({ body: { seconds: 600 } }));
  await until(
    async () => (await orThrow(again.listDeliveries({}))).deliveries[0]?.status === 'delivered',
    'the retry after restart',
  );
  const [delivery] = (await orThrow(again.listDeliveries({}))).deliveries;
  expect(delivery!.attempts.map((a) => [a.attempt, a.httpStatus])).toEqual([
    [1, 503],
    [2, 200],
  ]);
  expect(calls).toHaveLength(2);
  expect((calls[1] as { id: string }).id).toBe((calls[0] as { id: string }).id);
  second.child.kill('SIGTERM');
  expect(await second.exit).toEqual({ code: 0, signal: null });
}, 90_000);
