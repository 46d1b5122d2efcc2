import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { launchSandbox, type SandboxProcess, terminate } from '../../testing/sandbox-process.js';
import { bulkySubject, cannotMount, fillLeaving, mountTmpfs, unmountTmpfs } from '../../testing/tmpfs.js';

/** The file system's size: room for a new store (about 40 MB) and the writes below. */
const FS_MIB = 96;
/** Seconds the sandbox takes at most to stop on SIGTERM (cli.ts). */
const SHUTDOWN_BOUND_S = 10;

const why = cannotMount();
if (why) console.log(`[full-disk] skipped: ${why}`);

let mountPoint = '';
let sandbox: SandboxProcess | undefined;
const stop = async (running: SandboxProcess | undefined) => {
  if (!running || running.child.exitCode !== null) return;
  running.child.kill('SIGKILL');
  await running.exit;
};

describe.skipIf(why !== null)(`a --data folder on a ${FS_MIB} MiB file system that fills`, () => {
  beforeAll(() => {
    mountPoint = mountTmpfs('ramp-full-disk-', FS_MIB);
  });
  afterAll(async () => {
    await stop(sandbox);
    unmountTmpfs(mountPoint);
  }, 30_000);

  it('refuses a write it cannot store with 503 at once, serves reads, takes writes again once space returns, stops on SIGTERM and loses nothing answered', async () => {
    const data = join(mountPoint, 'data');
    sandbox = await launchSandbox(['--data', data]);
    const control = createSandboxClient({ baseUrl: sandbox.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Before the disk fills' } }));
    const stored: string[] = [];
    // Everything but a few KiB taken by another file.
    let filler = '';
    let refused: { status: number; body: { error?: string; message?: string }; ms: number } | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      // Three events stored first, then the file system filled.
      if (i === 3) filler = fillLeaving(mountPoint, 64 * 1024);
      const subject = bulkySubject();
      const started = performance.now();
      const answer = await fetch(`${sandbox.url}/sandbox/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenantId: tenant.clientId, event: 'user.created', subject }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await answer.json()) as { error?: string; message?: string; envelope?: { id: string } };
      if (answer.status === 201) stored.push(body.envelope!.id);
      else refused = { status: answer.status, body, ms: performance.now() - started };
    }
    expect(stored).toHaveLength(3);
    expect(refused?.status, JSON.stringify(refused?.body)).toBe(503);
    expect(refused!.body.error).toBe('storage_full');
    expect(refused!.body.message).toMatch(/--data/);
    expect(refused!.ms).toBeLessThan(2_000);
    // Reads are answered.
    const read = await fetch(`${sandbox.url}/sandbox/tenants`, { signal: AbortSignal.timeout(5_000) });
    expect(read.status).toBe(200);
    // Space returns: the next write is taken, without a restart.
    rmSync(filler);
    // The sandbox trusts one look at the free space for a moment (LOOK_MS), so the first write after may still be
    // refused; one within a few seconds is taken.
    const after = await vi.waitFor(() => orThrow(control.createTenant({ body: { name: 'After space returned' } })), {
      timeout: 5_000,
      interval: 50,
    });
    // SIGTERM stops it within its bound.
    const { exit, ms } = await terminate(sandbox, (SHUTDOWN_BOUND_S + 5) * 1000);
    expect(exit, `still running ${SHUTDOWN_BOUND_S + 5} s after SIGTERM`).not.toBeNull();
    expect(ms).toBeLessThan(SHUTDOWN_BOUND_S * 1000);
    // Restarted on the same folder: everything answered 201 is there.
    sandbox = await launchSandbox(['--data', data]);
    const again = createSandboxClient({ baseUrl: sandbox.url });
    const names = (await orThrow(again.listTenants())).tenants.map((t) => t.clientId);
    expect(names).toEqual(expect.arrayContaining([tenant.clientId, after.clientId]));
    const events = await orThrow(again.listEvents({ params: { query: { tenant: tenant.clientId } } }));
    expect(events.events.map((e) => e.id)).toEqual(expect.arrayContaining(stored));
  }, 240_000);
});
