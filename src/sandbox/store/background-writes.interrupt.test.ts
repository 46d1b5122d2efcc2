// The --data reserve holds for the sandbox's own background writes too: delayed trigger outcomes falling due and
// delivery attempts to a receiver that fails every call. The data folder sits on a small tmpfs of the test's own
// (./full-disk.interrupt.test.ts does the same for the API's writes), filled by another file to below the
// reserve: neither the outcomes nor the attempts are written while it is (each writer says so once in the log),
// reads are answered, and once space returns both go on without a restart. Filled again, SIGTERM stops the
// process within its bound. The process's resident memory is measured throughout.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { USER_REJECTED_LATER } from 'ramp-api/triggers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createV1Client } from '../../client/index.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox, residentMib, type SandboxProcess, terminate } from '../../testing/sandbox-process.js';
import { registerExampleUser } from '../../testing/sandbox-users.js';
import { cannotMount, fillLeaving, freeBytes, mountTmpfs, unmountTmpfs } from '../../testing/tmpfs.js';
import { until } from '../../testing/until.js';
import { SHUTDOWN_BOUND_MS } from '../cli.js';
import { RESERVED_DISK_BYTES } from './disk-space.js';

/** The file system's size: room for a new store (about 40 MB), its log, and the reserve. */
const FS_MIB = 128;
/** Seconds the sandbox takes at most to stop on SIGTERM. */
const SHUTDOWN_BOUND_S = SHUTDOWN_BOUND_MS / 1000;
/** The delay of every `_LATER` value (seconds of sandbox time), and how long before it the disk is filled. */
const DELAY_S = 60;
const AHEAD_S = 8;
const ENDPOINTS = 5;
/** Calls per delivery (max_attempts, the most the description allows), half a second apart. */
const CALLS = 10;
const USERS = 5;
/** Resident memory the process may reach at most (MiB). */
const MEMORY_BOUND_MIB = 768;

const why = cannotMount();
if (why) console.log(`[background-writes] skipped: ${why}`);

let mountPoint = '';
let sandbox: SandboxProcess | undefined;

/** How many times the process's output has said `line`. */
const said = (running: SandboxProcess, line: string) => running.output().split(line).length - 1;
const OUTCOMES_STALLED = '[sandbox] scheduled outcomes (retrying every pass)';
const DELIVERIES_STALLED = '[sandbox] delivery worker (retrying every pass';

async function world(running: SandboxProcess, control: SandboxClient) {
  const tenant = await orThrow(control.createTenant({ body: { name: 'Background writes' } }));
  const v1 = createV1Client({ baseUrl: running.url, auth: { credentials: tenant.v1Credentials }, retry: false });
  // Registered before the endpoints are: only the event the test triggers is delivered.
  const users: string[] = [];
  for (let i = 0; i < USERS; i++)
    users.push(await registerExampleUser(running.url, tenant, { identity_verification_result: USER_REJECTED_LATER }));
  for (let i = 0; i < ENDPOINTS; i++)
    await orThrow(
      v1.createIntegrationEndpoint({
        body: {
          name: `fails-${i}`,
          direction: 'OUTBOUND',
          url: `${running.url}/sandbox/receivers/fail`,
          httpMethod: 'POST',
          triggerEvent: 'user.created',
          retryConfig: { max_attempts: CALLS, initial_delay_ms: 500, multiplier: 1 },
        },
      }),
    );
  const statuses = async () => {
    const state = await orThrow(control.getTenantState({ params: { path: { tenantId: tenant.clientId } } }));
    return users.map((id) => state.users.find((u) => u.userId === id)?.status);
  };
  const attemptTimes = async () =>
    (await orThrow(control.listDeliveries({}))).deliveries.flatMap((d) => d.attempts.map((a) => Date.parse(a.time)));
  const attempts = async () => (await attemptTimes()).length;
  return { tenant, statuses, attempts, attemptTimes };
}

describe.skipIf(why !== null)(`background writes into a --data folder on a ${FS_MIB} MiB file system`, () => {
  beforeAll(() => {
    mountPoint = mountTmpfs('ramp-background-writes-', FS_MIB);
  });
  afterAll(async () => {
    if (sandbox && sandbox.child.exitCode === null) {
      sandbox.child.kill('SIGKILL');
      await sandbox.exit;
    }
    unmountTmpfs(mountPoint);
  }, 30_000);

  it('keep the disk reserve (outcomes and delivery attempts wait), go on once space returns, and SIGTERM stops the process mid-stall', async () => {
    const running = await launchSandbox(['--data', join(mountPoint, 'data')]);
    sandbox = running;
    const pid = running.child.pid!;
    let peak = residentMib(pid);
    const control = createSandboxClient({ baseUrl: running.url, retry: false });
    const { tenant, statuses, attempts, attemptTimes } = await world(running, control);
    // The users' outcomes fall due AHEAD_S seconds from now; the event makes ENDPOINTS deliveries of CALLS calls.
    await orThrow(control.advanceClock({ body: { seconds: DELAY_S - AHEAD_S } }));
    await orThrow(control.triggerEvent({ body: { tenantId: tenant.clientId, event: 'user.created' } }));
    // Below the reserve, with room left for the writes to show if they were made.
    const filledAt = Date.parse((await orThrow(control.getClock())).now);
    const filler = fillLeaving(mountPoint, RESERVED_DISK_BYTES - 8 * 2 ** 20);
    const freeWhenFull = freeBytes(mountPoint);

    await until(() => said(running, DELIVERIES_STALLED) === 1, 'the delivery worker to say the disk is full', 10_000);
    await until(() => said(running, OUTCOMES_STALLED) === 1, 'the outcomes to fall due and wait', 30_000);
    peak = Math.max(peak, residentMib(pid));
    expect(await statuses()).toEqual(Array(USERS).fill('pending'));
    // A call claimed as the disk filled may have been made (the sandbox trusts one look at the free space for
    // 100 ms); none was started later (in sandbox time, which each attempt records).
    const whileFull = await attempts();
    const late = (await attemptTimes()).filter((time) => time > filledAt + 1_000);
    expect(late.map((time) => new Date(time).toISOString())).toEqual([]);
    expect(freeBytes(mountPoint)).toBeGreaterThanOrEqual(freeWhenFull - 2 ** 20);
    const read = await fetch(`${running.url}/sandbox/tenants`, { signal: AbortSignal.timeout(5_000) });
    expect(read.status).toBe(200);

    // Space returns: both go on by themselves, without a restart.
    rmSync(filler);
    await until(
      async () => (await statuses()).every((s) => s === 'rejected'),
      'the outcomes once space returned',
      30_000,
    );
    await until(async () => (await attempts()) === ENDPOINTS * CALLS, 'every call of every delivery', 30_000);
    peak = Math.max(peak, residentMib(pid));

    // Filled again: SIGTERM stops the process while the delivery worker waits for space.
    fillLeaving(mountPoint, RESERVED_DISK_BYTES - 8 * 2 ** 20);
    await until(() => said(running, DELIVERIES_STALLED) === 2, 'the delivery worker to wait again', 10_000);
    const { exit, ms } = await terminate(running, (SHUTDOWN_BOUND_S + 5) * 1000);
    console.log(
      `[background-writes] ${whileFull} calls while the disk was full, ${ENDPOINTS * CALLS} once space returned; resident memory peak ${peak.toFixed(0)} MiB (bound ${MEMORY_BOUND_MIB} MiB)`,
    );
    expect(exit, `still running ${SHUTDOWN_BOUND_S + 5} s after SIGTERM`).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(SHUTDOWN_BOUND_S * 1000);
    expect(peak).toBeLessThanOrEqual(MEMORY_BOUND_MIB);
  }, 240_000);
});
