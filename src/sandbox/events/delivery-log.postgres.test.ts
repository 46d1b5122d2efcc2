// The delivery log holds every call an endpoint received. Two instances on one PostgreSQL database: the first
// claims a delivery and calls the endpoint, which holds the call open; the first is then frozen (SIGSTOP), so
// the call is still in flight, neither timed out nor recorded, when the sandbox clock moves past the claim's
// lease and the second instance claims the delivery again and makes the next attempt. Both calls reached
// the endpoint, so both are in the log under their own attempt numbers, whichever is recorded first.
import type { ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { deliverySchedule } from '../../client/webhooks/index.js';
import { newPostgresDatabase, sandboxInTest, storeNamed } from '../../testing/sandbox-fixture.js';
import { launchSandbox } from '../../testing/sandbox-process.js';
import { until } from '../../testing/until.js';

describe.skipIf(!storeNamed('PostgreSQL'))('a lease that runs out while its call is still in flight', () => {
  const started: ChildProcess[] = [];
  const calls: string[] = [];
  const held: ServerResponse[] = [];
  // The first call is held open and never answered; every later one is answered 200.
  const endpoint = createServer((req, res) => {
    let text = '';
    req
      .on('data', (c) => (text += c))
      .on('end', () => {
        calls.push((JSON.parse(text) as { id: string }).id);
        if (calls.length === 1) held.push(res);
        else res.writeHead(200).end();
      });
  });
  afterAll(async () => {
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
    for (const res of held) res.destroy();
    endpoint.closeAllConnections();
    await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  }, 30_000);

  it('logs both calls: the one in flight when the lease ran out, and the one the next claim made', async () => {
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/ramp/user.created`;
    const databaseUrl = await newPostgresDatabase();
    const first = await launchSandbox(['--database-url', databaseUrl]);
    started.push(first.child);
    const control = createSandboxClient({ baseUrl: first.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    await orThrow(
      createV1Client({
        baseUrl: first.url,
        auth: { credentials: tenant.v1Credentials },
        retry: false,
      }).createIntegrationEndpoint({
        body: { name: 'e', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'user.created' },
      }),
    );
    await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
    await until(() => calls.length === 1, 'the first instance to call the endpoint', 10_000);
    // Frozen with its call in flight: it can neither time the call out nor record it until it is resumed.
    first.child.kill('SIGSTOP');

    const second = await sandboxInTest({ databaseUrl });
    const again = createSandboxClient({ baseUrl: second.url });
    await orThrow(again.advanceClock({ body: { seconds: deliverySchedule().timeoutMs / 1000 + 60 } }));
    await until(() => calls.length === 2, 'the second claim to call the endpoint', 10_000);
    await second.events.worker.idle();

    // Resumed and stopped: the first call, long past its timeout in sandbox time, ends and is recorded before
    // the instance exits.
    first.child.kill('SIGCONT');
    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });

    const [delivery] = (await orThrow(again.listDeliveries({}))).deliveries;
    expect(delivery!.status).toBe('delivered');
    expect(calls).toEqual([calls[0], calls[0]]);
    expect(delivery!.attempts.length, 'attempts logged, against the calls the endpoint received').toBe(calls.length);
    expect(
      delivery!.attempts
        .map((a) => [a.attempt, a.outcome, a.httpStatus])
        .sort((x, y) => String(x).localeCompare(String(y))),
    ).toEqual([
      [1, 'timeout', null],
      [2, 'delivered', 200],
    ]);
    expect(second.violations).toEqual([]);
  }, 90_000);
});
