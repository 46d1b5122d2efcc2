// Delayed trigger outcomes at scale, falling due while the --data folder's file system sits at the reserve: 3,000
// users registered with a `_LATER` rejection; then, while the outcomes fall due, their tenant fills its quota with
// its own events and the disk is filled to the reserve (by another file, then the API's writes until refused).
// Reads are answered meanwhile. Then the file system grows: the outcomes that waited run, reads are still
// answered, and SIGTERM in the middle stops the process cleanly within its bound. Restarted on the same folder
// with the clock past the delay, every user has been rejected, each once: an outcome is not lost to its tenant's
// quota (which takes an outcome with an allowance), nor to the full disk, nor to the stop.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { USER_REJECTED_LATER } from 'ramp-api/triggers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient, type SandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox, type SandboxProcess, terminate } from '../../testing/sandbox-process.js';
import { registerExampleUser, sandboxToken } from '../../testing/sandbox-users.js';
import { bulkySubject, cannotMount, fillLeaving, freeBytes, mountTmpfs, unmountTmpfs } from '../../testing/tmpfs.js';
import { until } from '../../testing/until.js';
import { SHUTDOWN_BOUND_MS } from '../cli.js';
import { RESERVED_DISK_BYTES } from './disk-space.js';

/** The file system's size at first (room for a new store, the users and a full tenant), and once grown (MiB). */
const FS_MIB = 224;
const GROWN_MIB = 320;
/** Users whose rejection is delayed: the scale the issue names. */
const USERS = 3_000;
/** The delay of every `_LATER` value (seconds of sandbox time), and how long before it the disk fills. */
const DELAY_S = 60;
/** Seconds after the registrations that the first outcome falls due: while the disk fills. */
const LEAD_S = 2;
/** Registrations, and the tenant's filling writes, in flight at once. */
const PARALLEL = 16;
const FILLERS = 4;

const why = cannotMount();
if (why) console.log(`[outcomes-full-disk] skipped: ${why}`);

let mountPoint = '';
let sandbox: SandboxProcess | undefined;

async function registerUsers(url: string, tenant: Parameters<typeof registerExampleUser>[1]) {
  const token = await sandboxToken(url, 'v1', tenant.v1Credentials);
  const users: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < USERS) {
      next++;
      users.push(await registerExampleUser(url, tenant, { identity_verification_result: USER_REJECTED_LATER }, token));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return users;
}

/** Stores an event of about 240 KB for `tenantId`; the refusal's code, if refused. */
async function bigEvent(url: string, tenantId: string): Promise<string | undefined> {
  const subject = bulkySubject();
  const answer = await fetch(`${url}/sandbox/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenantId, event: 'user.created', subject }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await answer.json()) as { error?: string };
  if (answer.status === 201) return undefined;
  if (body.error === 'quota_exceeded' || body.error === 'storage_full') return body.error;
  throw new Error(`a filling write answered ${answer.status}: ${JSON.stringify(body)}`);
}

/**
 * The tenant fills its quota with its own events (FILLERS at a time), then the disk is filled to just above its
 * reserve by another file and to the reserve by another tenant's events. How many events were stored.
 */
async function fillQuotaAndDisk(url: string, control: SandboxClient, tenantId: string): Promise<number> {
  let stored = 0;
  let refused: string | undefined;
  const writer = async () => {
    while (!refused) {
      const answer = await bigEvent(url, tenantId);
      if (answer) refused = answer;
      else stored++;
    }
  };
  await Promise.all(Array.from({ length: FILLERS }, writer));
  expect(refused, 'the tenant was to fill its quota before the disk').toBe('quota_exceeded');
  fillLeaving(mountPoint, RESERVED_DISK_BYTES + 4 * 2 ** 20);
  const other = (await orThrow(control.createTenant({ body: { name: 'Filler' } }))).clientId;
  while (!(await bigEvent(url, other))) stored++;
  return stored;
}

async function statusCounts(control: SandboxClient, tenantId: string) {
  const state = await orThrow(control.getTenantState({ params: { path: { tenantId } } }));
  const counts: Record<string, number> = {};
  for (const user of state.users) counts[user.status] = (counts[user.status] ?? 0) + 1;
  return counts;
}

describe.skipIf(why !== null)(`${USERS} delayed outcomes on a --data folder whose disk fills`, () => {
  beforeAll(() => {
    mountPoint = mountTmpfs('ramp-outcomes-full-disk-', FS_MIB);
  });
  afterAll(async () => {
    if (sandbox && sandbox.child.exitCode === null) {
      sandbox.child.kill('SIGKILL');
      await sandbox.exit;
    }
    unmountTmpfs(mountPoint);
  }, 30_000);

  it('runs every outcome once, after the disk grows and a restart, and answers and stops meanwhile', async () => {
    const data = join(mountPoint, 'data');
    sandbox = await launchSandbox(['--data', data]);
    const control = createSandboxClient({ baseUrl: sandbox.url, retry: false });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Delayed rejections' } }));
    const started = performance.now();
    const users = await registerUsers(sandbox.url, tenant);
    const registeredMs = performance.now() - started;
    expect(new Set(users).size).toBe(USERS);
    // The first outcome falls due LEAD_S seconds from now, the last as long after as the registrations took.
    const registeredFor = Math.floor(registeredMs / 1000);
    const lead = Math.max(0, DELAY_S - registeredFor - LEAD_S);
    if (lead > 0) await orThrow(control.advanceClock({ body: { seconds: lead } }));
    const lastDue = Date.parse((await orThrow(control.getClock())).now) + (DELAY_S - lead) * 1000;
    const fillStarted = performance.now();
    const filled = await fillQuotaAndDisk(sandbox.url, control, tenant.clientId);
    const fillMs = performance.now() - fillStarted;
    expect(freeBytes(mountPoint)).toBeLessThan(RESERVED_DISK_BYTES + 8 * 2 ** 20);
    const atFull = await statusCounts(control, tenant.clientId);
    expect(atFull.pending, 'users whose outcome falls due while the disk is full').toBeGreaterThan(0);
    // Every outcome falls due while the disk is full; meanwhile reads are answered, each within seconds.
    let slowestReadMs = 0;
    const read = async <T>(call: () => Promise<T>) => {
      const asked = performance.now();
      const answer = await call();
      slowestReadMs = Math.max(slowestReadMs, performance.now() - asked);
      return answer;
    };
    await until(
      async () => Date.parse((await read(() => orThrow(control.getClock()))).now) > lastDue + 2_000,
      'sandbox time to pass the last due time',
      (DELAY_S + 30) * 1000,
    );

    // The file system grows: the outcomes that waited run, reads are answered meanwhile, and SIGTERM in the
    // middle stops the process cleanly within its bound.
    execFileSync('mount', ['-o', `remount,size=${GROWN_MIB}m`, mountPoint]);
    await until(
      async () => (await read(() => statusCounts(control, tenant.clientId))).pending! < atFull.pending!,
      'the first outcomes to run once space returned',
      30_000,
    );
    const atStop = await read(() => statusCounts(control, tenant.clientId));
    const stopped = await terminate(sandbox, SHUTDOWN_BOUND_MS + 5_000);
    expect(stopped.exit, `still running ${SHUTDOWN_BOUND_MS / 1000 + 5} s after SIGTERM`).toEqual({
      code: 0,
      signal: null,
    });
    expect(stopped.ms).toBeLessThan(SHUTDOWN_BOUND_MS);
    expect(slowestReadMs).toBeLessThan(5_000);

    // Restarted on the same folder, the clock past the delay: every user was rejected, each once.
    sandbox = await launchSandbox(['--data', data]);
    const again = createSandboxClient({ baseUrl: sandbox.url, retry: false, maxResponseBytes: 2 ** 30 });
    await orThrow(again.advanceClock({ body: { seconds: DELAY_S + 1 } }));
    const after = await statusCounts(again, tenant.clientId);
    const listed = await orThrow(again.listEvents({ params: { query: { tenant: tenant.clientId } } }));
    const rejections = listed.events.filter((e) => e.event === 'user.canceled');
    console.log(
      `[outcomes-full-disk] ${USERS} users registered in ${(registeredMs / 1000).toFixed(1)} s; ${filled} filling writes in ${(fillMs / 1000).toFixed(1)} s; at full ${JSON.stringify(atFull)}; at SIGTERM ${JSON.stringify(atStop)}, stopped in ${stopped.ms.toFixed(0)} ms; slowest read ${slowestReadMs.toFixed(0)} ms; after the restart ${JSON.stringify(after)}; ${rejections.length} user.canceled events`,
    );
    expect(after).toEqual({ rejected: USERS });
    expect(rejections).toHaveLength(USERS);
  }, 600_000);
});
