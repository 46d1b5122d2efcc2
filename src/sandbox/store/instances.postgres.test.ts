// Several sandbox instances on one PostgreSQL database: the writes that must not race hold when
// concurrent requests are split across two instances, the clock and the tokens are the database's (no
// instance keeps its own), and a delivery held by an instance that dies is taken by another after its lease.
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createBusinessClient, createV1Client, orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { deliverySchedule } from '../../client/webhooks/index.js';
import { newPostgresDatabase, sandboxInTest, storeNamed, useSandbox } from '../../testing/sandbox-fixture.js';
import { launchSandbox } from '../../testing/sandbox-process.js';
import { fundedExampleUser, registerExampleUser, sandboxToken } from '../../testing/sandbox-users.js';
import { until } from '../../testing/until.js';
import { readBundleFile } from '../contract/document.js';
import type { Sandbox } from '../server.js';

const postgres = storeNamed('PostgreSQL');

describe.skipIf(!postgres)('two sandbox instances on one PostgreSQL database', () => {
  const a = useSandbox({ store: postgres });
  const b = useSandbox({ shareWith: a });
  /** The i-th of `n` concurrent calls goes to instance a or b in turn. */
  const either = (i: number) => (i % 2 ? b : a);

  afterAll(() => {
    expect([...a.violations, ...b.violations]).toEqual([]);
  });

  async function tenantOn(sandbox: Sandbox) {
    return orThrow(createSandboxClient({ baseUrl: sandbox.url }).createTenant({ body: {} }));
  }
  const v1Of = (sandbox: Sandbox, tenant: Awaited<ReturnType<typeof tenantOn>>) =>
    createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
  const businessOf = (sandbox: Sandbox, tenant: Awaited<ReturnType<typeof tenantOn>>) =>
    createBusinessClient({ baseUrl: sandbox.url, auth: { credentials: tenant.businessCredentials }, retry: false });

  it('creates tenants and issues tokens on both at once: every tenant distinct, every token good on the other instance', async () => {
    const tenants = await Promise.all(Array.from({ length: 12 }, (_, i) => tenantOn(either(i))));
    expect(new Set(tenants.map((t) => t.clientId)).size).toBe(12);
    const listed = await Promise.all(
      tenants.map((t, i) =>
        orThrow(businessOf(either(i + 1), t).listBankAccounts({ params: { path: { clientId: t.clientId } } })),
      ),
    );
    expect(listed).toEqual(tenants.map(() => []));
  });

  it('never overdraws a balance: concurrent payouts split across both instances', async () => {
    const tenant = await tenantOn(a);
    const { userId, accountId } = await fundedExampleUser(a.url, tenant, 1000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        v1Of(either(i), tenant).createPayout({
          params: { path: { user_id: userId } },
          body: { amount: 100, currency: 'COP', destinationId: accountId },
        }),
      ),
    );
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(
      await orThrow(
        createSandboxClient({ baseUrl: b.url }).fundUser({
          params: { path: { userId } },
          body: { amount: 1, currency: 'COP' },
        }),
      ),
    ).toMatchObject({ balance: 1 });
  });

  it('never overdraws a custody wallet, and lists every transfer once with its own number: concurrent transfers on both', async () => {
    const tenant = await tenantOn(a);
    const userId = await registerExampleUser(a.url, tenant);
    await orThrow(createSandboxClient({ baseUrl: a.url }).approveUser({ params: { path: { userId } } }));
    const clientId = tenant.clientId;
    const business = businessOf(a, tenant);
    const open = () =>
      orThrow(business.createCustodyWallet({ params: { path: { clientId, userId } }, body: { token: 'USDC' } }));
    const [origin, destination] = [await open(), await open()];
    await orThrow(
      createSandboxClient({ baseUrl: b.url }).fundWallet({
        params: { path: { walletId: origin.id } },
        body: { amount: 50 },
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        businessOf(either(i), tenant).createWalletTransfer({
          params: { path: { clientId, userId } },
          body: { walletOriginId: origin.id, walletDestinationId: destination.id, amount: 10 },
        }),
      ),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 200, 200, 200, 200, 400, 400, 400, 400, 400]);
    const made = results.filter((r) => r.response.status === 200).map((r) => (r.data as { id: string }).id);
    const list = await orThrow(businessOf(b, tenant).listWalletTransfers({ params: { path: { clientId, userId } } }));
    expect(list.map((t) => t.id).sort()).toEqual([...made].sort());
    expect(new Set(list.map((t) => t.walletTransferNumber)).size).toBe(5);
    expect(
      await orThrow(business.getCustodyWalletBalance({ params: { path: { clientId, userId, walletId: origin.id } } })),
    ).toEqual({ balance: '0', token: 'USDC' });
  });

  it('pays concurrent on-ramps of a user without a custody wallet into one wallet, whichever instance pays', async () => {
    const tenant = await tenantOn(a);
    const control = createSandboxClient({ baseUrl: a.url });
    const userId = await registerExampleUser(a.url, tenant);
    await orThrow(control.approveUser({ params: { path: { userId } } }));
    const { externalWalletId } = await orThrow(control.createExternalWallet({ body: { userId } }));
    const v1 = v1Of(a, tenant);
    const operations: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await orThrow(
        v1.createOnRamp({
          params: { path: { user_id: userId } },
          body: { amount: 200_000, destination: { type: 'EXTERNAL', externalWalletId } },
        }),
      );
      operations.push(created.operation.id);
    }
    const paid = await Promise.all(
      operations.map((operationId, i) =>
        orThrow(createSandboxClient({ baseUrl: either(i).url }).payOnRamp({ params: { path: { operationId } } })),
      ),
    );
    expect(paid.map((p) => p.status)).toEqual(operations.map(() => 'COMPLETED'));
    const wallets = await orThrow(
      businessOf(b, tenant).listCustodyWallets({ params: { path: { clientId: tenant.clientId, userId } } }),
    );
    expect(wallets).toHaveLength(1);
    const balance = await orThrow(
      businessOf(b, tenant).getCustodyWalletBalance({
        params: { path: { clientId: tenant.clientId, userId, walletId: wallets[0]!.id } },
      }),
    );
    expect(balance).toEqual({ balance: String(8 * 50), token: 'USDC' });
  });

  it('answers a duplicate sent to both instances at once with the documented refusal, never a 500: registration, endpoint name, external wallet', async () => {
    const tenant = await tenantOn(a);
    const { external_user_id: externalUserId, ...person } = (readBundleFile('v1') as any).components.examples
      .RegisterNaturalPerson.value;
    const registrations = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        v1Of(either(i), tenant).registerUser({
          params: { header: { 'x-integration-register': tenant.integrationRegister } },
          body: { ...person, external_user_id: externalUserId ?? crypto.randomUUID() },
        }),
      ),
    );
    expect(registrations.map((r) => r.response.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    const endpoints = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        v1Of(either(i), tenant).createIntegrationEndpoint({
          body: {
            name: 'same name',
            direction: 'OUTBOUND',
            url: 'https://hooks.example/ramp',
            httpMethod: 'POST',
            triggerEvent: 'user.created',
          },
        }),
      ),
    );
    expect(endpoints.map((r) => r.response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const userId = await registerExampleUser(a.url, tenant);
    const externalWalletId = crypto.randomUUID();
    const wallets = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createSandboxClient({ baseUrl: either(i).url }).createExternalWallet({ body: { userId, externalWalletId } }),
      ),
    );
    expect(wallets.map((r) => r.response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('keeps one clock: advances on either instance add up, and a token expires on both at the same moment', async () => {
    const [controlA, controlB] = [createSandboxClient({ baseUrl: a.url }), createSandboxClient({ baseUrl: b.url })];
    const before = (await orThrow(controlA.advanceClock({ body: { seconds: 1 } }))).offsetSeconds;
    const advanced = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        orThrow((i % 2 ? controlB : controlA).advanceClock({ body: { seconds: 1 } })),
      ),
    );
    expect(advanced.map((c) => c.offsetSeconds).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 10 }, (_, i) => before + i + 1),
    );
    expect((await orThrow(controlB.advanceClock({ body: { seconds: 1 } }))).offsetSeconds).toBe(before + 11);

    const tenant = await tenantOn(b);
    const token = await sandboxToken(a.url, 'business', tenant.businessCredentials);
    const get = (sandbox: Sandbox) =>
      fetch(`${sandbox.url}/api/accounts/${tenant.clientId}`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect([await get(a), await get(b)]).toEqual([200, 200]);
    await orThrow(controlA.advanceClock({ body: { seconds: 301 } }));
    expect([await get(a), await get(b)]).toEqual([401, 401]);
  });

  it("resetSandbox on one instance: another (in its own process) refuses the removed tenants' tokens at once, and its clock is back to 0", async () => {
    const scratchUrl = await newPostgresDatabase();
    const one = await sandboxInTest({ databaseUrl: scratchUrl });
    const two = await launchSandbox(['--database-url', scratchUrl]);
    try {
      const tenant = await tenantOn(one);
      const token = await sandboxToken(one.url, 'business', tenant.businessCredentials);
      const get = () =>
        fetch(`${two.url}/api/accounts/${tenant.clientId}`, { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.status,
        );
      expect(await get()).toBe(200);
      expect(
        (await orThrow(createSandboxClient({ baseUrl: two.url }).advanceClock({ body: { seconds: 60 } })))
          .offsetSeconds,
      ).toBe(60);
      expect(await orThrow(createSandboxClient({ baseUrl: one.url }).resetSandbox())).toEqual({ tenantsRemoved: 1 });
      expect(await get()).toBe(401);
      expect(
        (await orThrow(createSandboxClient({ baseUrl: two.url }).advanceClock({ body: { seconds: 1 } }))).offsetSeconds,
      ).toBe(1);
    } finally {
      two.child.kill('SIGTERM');
      await two.exit;
    }
  }, 30_000);
});

describe.skipIf(!postgres)('an instance that dies holding a delivery', () => {
  const started: ChildProcess[] = [];
  const calls: string[] = [];
  // The first call is held open (the instance dies while waiting); every later one is answered 200.
  const endpoint = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req
      .on('data', (c) => (text += c))
      .on('end', () => {
        calls.push((JSON.parse(text) as { id: string }).id);
        if (calls.length > 1) res.writeHead(200).end();
      });
  });
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    endpoint.closeAllConnections();
    await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  }, 30_000);

  it('gives it back: another instance delivers it once the lease has passed, not before', async () => {
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/ramp/user.created`;
    const databaseUrl = await newPostgresDatabase();
    const doomed = await launchSandbox(['--database-url', databaseUrl]);
    started.push(doomed.child);
    const control = createSandboxClient({ baseUrl: doomed.url });
    const tenant = await orThrow(control.createTenant({ body: {} }));
    await orThrow(
      v1Client(doomed.url, tenant.v1Credentials).createIntegrationEndpoint({
        body: { name: 'e', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'user.created' },
      }),
    );
    await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
    await until(() => calls.length === 1, 'the doomed instance to call the endpoint', 10_000);
    doomed.child.kill('SIGKILL');
    await doomed.exit;

    const survivor = await sandboxInTest({ databaseUrl });
    const again = createSandboxClient({ baseUrl: survivor.url });
    await survivor.events.worker.idle();
    // Still leased to the dead instance: pending, not sent again.
    expect((await orThrow(again.listDeliveries({}))).deliveries.map((d) => d.status)).toEqual(['pending']);
    expect(calls).toHaveLength(1);
    await orThrow(again.advanceClock({ body: { seconds: deliverySchedule().timeoutMs / 1000 + 60 } }));
    await until(
      async () => (await orThrow(again.listDeliveries({}))).deliveries[0]?.status === 'delivered',
      'the survivor to deliver',
      10_000,
    );
    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(calls[0]);
    // Both calls are in the log: the dead instance's (no answer it could record: a timeout) and the survivor's.
    const [delivery] = (await orThrow(again.listDeliveries({}))).deliveries;
    expect(delivery!.attempts.length, 'attempts logged, against the calls the endpoint received').toBe(calls.length);
    expect(delivery!.attempts.map((a) => a.outcome).sort()).toEqual(['delivered', 'timeout']);
  }, 90_000);
});

// A failing endpoint (500) and an instance killed with SIGKILL holding its first claim: either the moment it
// connects (the connection dropped unread, so the call never reaches the endpoint) or once the endpoint has
// read the whole call (it reached the endpoint, and no answer ever comes back). The killed claim uses up its
// attempt: it is logged as a timeout, and the endpoint is never called more than the schedule allows.
describe.skipIf(!postgres).each(['connects', 'has sent its call'] as const)(
  'an instance killed with SIGKILL when it %s to a failing endpoint',
  (stage) => {
    const started: ChildProcess[] = [];
    let doomedPid: number | undefined;
    let connections = 0;
    let calls = 0;
    const endpoint = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume().on('end', () => {
        calls++;
        if (calls === 1 && stage === 'has sent its call') {
          if (doomedPid) process.kill(doomedPid, 'SIGKILL');
          req.socket.destroy();
        } else res.writeHead(500).end();
      });
    });
    endpoint.on('connection', (socket) => {
      if (connections++ === 0 && stage === 'connects') {
        if (doomedPid) process.kill(doomedPid, 'SIGKILL');
        socket.destroy();
      }
    });
    afterAll(async () => {
      for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      endpoint.closeAllConnections();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }, 30_000);

    it('logs its claim as attempt 1 timed out, then makes only the attempts left: no number repeats', async () => {
      await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/ramp/user.created`;
      const databaseUrl = await newPostgresDatabase();
      const doomed = await launchSandbox(['--database-url', databaseUrl]);
      started.push(doomed.child);
      doomedPid = doomed.child.pid;
      const control = createSandboxClient({ baseUrl: doomed.url });
      const tenant = await orThrow(control.createTenant({ body: {} }));
      await orThrow(
        v1Client(doomed.url, tenant.v1Credentials).createIntegrationEndpoint({
          body: { name: 'e', direction: 'OUTBOUND', url, httpMethod: 'POST', triggerEvent: 'user.created' },
        }),
      );
      await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
      expect((await doomed.exit).signal).toBe('SIGKILL');
      const reached = stage === 'connects' ? 0 : 1;
      expect(calls, 'calls of the killed instance that reached the endpoint').toBe(reached);

      const survivor = await sandboxInTest({ databaseUrl });
      const again = createSandboxClient({ baseUrl: survivor.url });
      const schedule = deliverySchedule();
      const delivery0 = async () => (await orThrow(again.listDeliveries({}))).deliveries[0]!;
      // Past the dead instance's lease, then past each retry delay, until the delivery has failed for good. After
      // each move, the attempt it made due is waited for (logged, and its call over) before the clock moves on:
      // a move while a call is under way would time that call out.
      for (let round = 0; round < schedule.calls + 2 && (await delivery0()).status !== 'failed'; round++) {
        const logged = (await delivery0()).attempts.length;
        await orThrow(
          again.advanceClock({
            body: { seconds: schedule.timeoutMs / 1000 + 60 + Math.max(0, ...schedule.retryDelaysMs) / 1000 },
          }),
        );
        await until(async () => (await delivery0()).attempts.length > logged, 'the next attempt', 20_000);
        await survivor.events.worker.idle();
      }
      const delivery = await delivery0();
      expect(delivery.status).toBe('failed');
      const log = delivery.attempts.map((a) => `${a.attempt}:${a.outcome === 'timeout' ? 'timeout' : a.httpStatus}`);
      expect(log, 'the delivery log (attempt:outcome)').toEqual([
        '1:timeout',
        ...Array.from({ length: schedule.calls - 1 }, (_, i) => `${i + 2}:500`),
      ]);
      expect(calls, 'calls that reached the failing endpoint').toBe(schedule.calls - 1 + reached);
    }, 120_000);
  },
);

function v1Client(baseUrl: string, credentials: unknown) {
  return createV1Client({ baseUrl, auth: { credentials: credentials as never }, retry: false });
}
