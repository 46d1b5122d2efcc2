// One tenant cannot grow the sandbox's memory without bound by storing records, nor by sending writes that are
// refused: against a sandbox process in memory (PGlite), and against one whose --data folder is on a tmpfs of its
// own, a tenant's own token sends events of about 1 MB of incompressible text each, in fields of at most the
// sandbox's text bound, until the tenant's quota refuses them with 403 `quota_exceeded`; the process's resident memory stays within MEMORY_BOUND_MIB of its size after the
// first event. Then REFUSED more such events and REFUSED_USERS `registerUser` calls with 8 KB of text, refused,
// grow it by a bounded amount: each run by at most REFUSED_BOUND_MIB, and its second half raises the highest size
// measured before it by at most SECOND_HALF_BOUND_MIB (a refused write's rows and write-ahead log must not stay in
// the process; the size at the middle may be below that high-water mark when a collection fell just before). Other
// tenants are still served.
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { v1Operations } from '../../client/generated/v1-meta.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox, residentMib, type SandboxProcess, stopSandbox } from '../../testing/sandbox-process.js';
import { sandboxToken } from '../../testing/sandbox-users.js';
import { cannotMount, mountTmpfs, unmountTmpfs } from '../../testing/tmpfs.js';
import { readBundleFile } from '../contract/document.js';
import { MAX_TEXT_CHARS, TENANT_QUOTA } from './quotas.js';

/** How far the process's resident memory may grow past its size after the first event (MiB). */
const MEMORY_BOUND_MIB = 512;
/** Fields of each event's subject, each MAX_TEXT_CHARS long: about 1 MB an event. */
const FIELDS = 240;
/** The most events sent: far more than the quota takes (about 70 of them). */
const MOST = 150;
/**
 * Events and users sent once the tenant is refused, each in two halves; how far each run may grow the process
 * (MiB: the store's write-ahead log and the heaps reach their high-water marks), and each second half (a
 * process whose refusals cost bounded memory has reached them by then).
 */
const REFUSED = 150;
const REFUSED_USERS = 3000;
const REFUSED_BOUND_MIB = 96;
const SECOND_HALF_BOUND_MIB = 48;

/** The tmpfs under --data: a new store (about 40 MB), the quota's bytes and the write-ahead log with room to spare. */
const FS_MIB = 384;

const why = cannotMount();
if (why) console.log(`[quotas] the --data case is skipped: ${why}`);

/** The stores the case runs on: in memory, and a --data folder on a tmpfs mounted for it. */
const STORES = [
  { name: 'in memory (--memory)', skip: null, args: async () => ['--memory'] },
  {
    name: `on a ${FS_MIB} MiB tmpfs (--data)`,
    skip: why,
    args: async (mounted: string[]) => {
      const mountPoint = mountTmpfs('ramp-quotas-', FS_MIB);
      mounted.push(mountPoint);
      return ['--data', join(mountPoint, 'data')];
    },
  },
];

describe.each(STORES)('a tenant at its quota, $name', ({ name, skip, args }) => {
  let sandbox: SandboxProcess | undefined;
  const mounted: string[] = [];
  beforeAll(async () => {
    if (!skip) sandbox = await launchSandbox(await args(mounted));
  }, 90_000);
  afterAll(async () => {
    await stopSandbox(sandbox);
    for (const mountPoint of mounted) unmountTmpfs(mountPoint);
  }, 30_000);

  it.skipIf(skip !== null)(
    `is refused with 403 quota_exceeded, the process staying within ${MEMORY_BOUND_MIB} MiB of its start; refusals cost bounded memory; the other tenant is served`,
    () => quotaCase(sandbox!, name),
    900_000,
  );
});

async function quotaCase(running: SandboxProcess, store: string) {
  const control = createSandboxClient({ baseUrl: running.url });
  const [tenant, other] = await Promise.all([
    orThrow(control.createTenant({ body: { name: 'Writes without end' } })),
    orThrow(control.createTenant({ body: { name: 'Bystander' } })),
  ]);
  const token = await sandboxToken(running.url, 'business', tenant.businessCredentials);
  // Taken before the quota is full: a token is a record too.
  const v1Token = await sandboxToken(running.url, 'v1', tenant.v1Credentials);
  // Incompressible text (PostgreSQL compresses repeated characters to almost nothing).
  const text = () => randomBytes(MAX_TEXT_CHARS).toString('base64').slice(0, MAX_TEXT_CHARS);
  const send = async () => {
    const subject: Record<string, string> = { id: randomUUID() };
    for (let i = 0; i < FIELDS; i++) subject[`note${i}`] = text();
    const answer = await fetch(`${running.url}/sandbox/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: tenant.clientId, event: 'user.created', subject }),
    });
    return { status: answer.status, body: (await answer.json()) as { error?: string; message?: string } };
  };
  expect((await send()).status).toBe(201);
  const pid = running.child.pid!;
  const start = residentMib(pid);
  let peak = start;
  let stored = 1;
  let refused: { status: number; body: { error?: string; message?: string } } | undefined;
  while (stored < MOST) {
    const answer = await send();
    peak = Math.max(peak, residentMib(pid));
    if (answer.status !== 201) {
      refused = answer;
      break;
    }
    stored++;
    // Stopped as soon as the bound is passed: the process would otherwise grow by gigabytes.
    if (peak - start > MEMORY_BOUND_MIB) break;
  }
  const atRefusal = residentMib(pid);
  // Refused again and again: nothing more is kept.
  for (let i = 0; i < REFUSED / 2 && refused; i++) expect((await send()).status).toBe(403);
  const midway = residentMib(pid);
  for (let i = 0; i < REFUSED / 2 && refused; i++) expect((await send()).status).toBe(403);
  const after = residentMib(pid);
  // A user is smaller than an event: the first users may still fit in the quota (about 80 do).
  const users = await refusedUsers(running.url, tenant, v1Token, REFUSED_USERS / 2);
  const usersMidway = residentMib(pid);
  const moreUsers = await refusedUsers(running.url, tenant, v1Token, REFUSED_USERS / 2);
  const afterUsers = residentMib(pid);
  peak = Math.max(peak, midway, after, usersMidway, afterUsers);
  console.log(
    `[quotas] ${store}: resident memory: ${start.toFixed(0)} MiB after the first event, ${atRefusal.toFixed(0)} MiB when refused after ${stored} events of about ${((FIELDS * MAX_TEXT_CHARS) / 1e6).toFixed(2)} MB, ${midway.toFixed(0)} then ${after.toFixed(0)} MiB after twice ${REFUSED / 2} more refused, ${usersMidway.toFixed(0)} then ${afterUsers.toFixed(0)} MiB after twice ${REFUSED_USERS / 2} registerUser refused, peak ${peak.toFixed(0)} MiB (bounds +${MEMORY_BOUND_MIB} MiB; +${REFUSED_BOUND_MIB} MiB for each run of refusals, +${SECOND_HALF_BOUND_MIB} MiB for its second half; quota ${TENANT_QUOTA.records} records, ${TENANT_QUOTA.bytes / 2 ** 20} MiB)`,
  );
  expect(refused?.status, `no refusal after ${stored} events`).toBe(403);
  expect(refused!.body.error).toBe('quota_exceeded');
  expect(refused!.body.message).toMatch(/resetSandbox/);
  expect(peak - start).toBeLessThanOrEqual(MEMORY_BOUND_MIB);
  expect(users).toBeGreaterThan(REFUSED_USERS / 4);
  expect(moreUsers).toBe(REFUSED_USERS / 2);
  expect(after - atRefusal).toBeLessThanOrEqual(REFUSED_BOUND_MIB);
  expect(after - Math.max(atRefusal, midway)).toBeLessThanOrEqual(SECOND_HALF_BOUND_MIB);
  expect(afterUsers - after).toBeLessThanOrEqual(REFUSED_BOUND_MIB);
  expect(afterUsers - Math.max(after, usersMidway)).toBeLessThanOrEqual(SECOND_HALF_BOUND_MIB);
  // Another tenant's writes are taken.
  const answer = await control.triggerEvent({
    body: { tenantId: other.clientId, event: 'user.created', subject: { id: randomUUID() } },
  });
  expect(answer.response.status).toBe(201);
}

/** `count` `registerUser` calls of the full tenant with 8 KB of text; how many were refused 403 `quota_exceeded`. */
async function refusedUsers(url: string, tenant: { integrationRegister: string }, token: string, count: number) {
  const { external_user_id: _fixed, ...person } = (readBundleFile('v1') as any).components.examples
    .RegisterNaturalPerson.value;
  let refused = 0;
  for (let i = 0; i < count; i++) {
    const text = () => randomBytes(3000).toString('base64').slice(0, 4000);
    const answer = await fetch(url + v1Operations.registerUser.path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-integration-register': tenant.integrationRegister,
      },
      body: JSON.stringify({ ...person, first_name: text(), last_name: text() }),
    });
    const body = (await answer.json()) as { error?: string };
    if (answer.status === 403 && body.error === 'quota_exceeded') refused++;
  }
  return refused;
}
