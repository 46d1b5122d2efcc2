// The sandbox as a process: a 201 survives SIGKILL (same --data on restart), and SIGINT/SIGTERM stop it cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBusinessClient, orThrow } from '../client/index.js';
import { createSandboxClient } from '../client/sandbox/client.js';
import { sandboxLauncher, sandboxRelay } from '../testing/sandbox-process.js';

const { launch, killAll } = sandboxLauncher();
const work = mkdtempSync(join(tmpdir(), 'ramp-sandbox-'));
afterAll(() => {
  killAll();
  rmSync(work, { recursive: true, force: true });
});

// Concurrent: the sandbox in memory starts beside the --data folder's; starting processes is most of the time.
describe.concurrent('the sandbox process', () => {
  it('prints its address, the dashboard and the control API docs address, and serves the dashboard from the package', async () => {
    const s = await launch(['--memory']);
    expect(s.output()).toContain(`Control API docs:  ${s.url}/sandbox/docs`);
    expect(s.output()).toContain(`Dashboard:         ${s.url}/ `);
    expect(s.output()).toContain('in memory');
    // The command sets one V8 flag for itself (store/wasm-tiering.ts, favourStartOverPeakSpeed): a V8 that did not know it would say so here.
    expect(s.output()).not.toMatch(/unrecognized flag/i);
    const docs = await fetch(`${s.url}/sandbox/docs`);
    expect(await docs.text()).toContain('advanceClock');
    const dashboard = await fetch(`${s.url}/`);
    expect([dashboard.status, await dashboard.text()]).toEqual([
      200,
      expect.stringContaining('/sandbox/assets/dashboard.js'),
    ]);
    s.child.kill('SIGTERM');
    await s.exit;
  }, 60_000);

  // One --data folder through the life a user gives it: written to and killed with SIGKILL, restarted, stopped
  // with SIGINT, started again, stopped with SIGTERM, started again. Each test goes on with the sandbox the one
  // before left serving the folder (a start fewer for each), and starts one itself when it runs alone.
  describe.sequential('on one --data folder', () => {
    const data = join(work, 'data');
    const relay = sandboxRelay(data, launch);
    afterAll(relay.stop, 30_000);

    it('keeps a record answered with 201 when killed with SIGKILL right after, and finds it on restart with the same --data', async () => {
      const first = await relay.take();
      const control = createSandboxClient({ baseUrl: first.url });
      const tenant = await orThrow(control.createTenant({ body: { name: 'Survivor' } }));
      const account = await orThrow(
        control.createBankAccount({ body: { clientId: tenant.clientId, accountNickname: 'Nómina' } }),
      );
      first.child.kill('SIGKILL');
      expect((await first.exit).signal).toBe('SIGKILL');

      const second = await launch(['--data', data]);
      relay.leave(second);
      const business = createBusinessClient({ baseUrl: second.url, auth: { credentials: tenant.businessCredentials } });
      const accounts = await orThrow(business.listBankAccounts({ params: { path: { clientId: tenant.clientId } } }));
      expect(accounts.map((a) => [a.id, a.accountNickname, a.status])).toEqual([
        [account.accountId, 'Nómina', 'in_review'],
      ]);
    }, 90_000);

    it.each(['SIGINT', 'SIGTERM'] as const)(
      'stops cleanly on %s: exit code 0, port closed, data reusable',
      async (signal) => {
        const s = await relay.take();
        s.child.kill(signal);
        expect(await s.exit).toEqual({ code: 0, signal: null });
        expect(s.output()).toContain(`Sandbox stopped (${signal}).`);
        await expect(fetch(`${s.url}/api/parameters/banks`)).rejects.toThrow();
        const again = await launch(['--data', data]);
        relay.leave(again);
        expect((await fetch(`${again.url}/api/parameters/banks`)).status).toBe(200);
      },
      90_000,
    );
  });
});
