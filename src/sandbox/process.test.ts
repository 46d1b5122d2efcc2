// The sandbox as a process: a 201 survives SIGKILL (same --data on restart), and SIGINT/SIGTERM stop it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBusinessClient, orThrow } from '../index.js';
import { createSandboxClient } from './client.js';

const bin = join(import.meta.dirname, 'bin.ts');
const started: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), 'ramp-sandbox-'));
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `ramp-api sandbox ARGS` in its own Node process (no tsx wrapper, so signals reach the server itself). */
async function launch(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'sandbox', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SANDBOX_PORT: '' } });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  child.stderr!.on('data', (chunk) => (out += String(chunk)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The sandbox did not print its address:\n${out}`)), 30_000);
    const look = () => {
      const m = /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exit.then(() => reject(new Error(`The sandbox exited before printing its address:\n${out}`)));
  });
  return { child, url, output: () => out, exit };
}

describe('the sandbox process', () => {
  it('prints its address and the control API docs address', async () => {
    const s = await launch(['--memory']);
    expect(s.output()).toContain(`Control API docs:  ${s.url}/sandbox/docs`);
    expect(s.output()).toContain('in memory');
    const docs = await fetch(`${s.url}/sandbox/docs`);
    expect(await docs.text()).toContain('advanceClock');
    s.child.kill('SIGTERM');
    await s.exit;
  }, 60_000);

  it('keeps a record answered with 201 when killed with SIGKILL right after, and finds it on restart with the same --data', async () => {
    const data = join(work, 'persist');
    const first = await launch(['--data', data]);
    const control = createSandboxClient({ baseUrl: first.url });
    const tenant = await orThrow(control.createTenant({ body: { name: 'Survivor' } }));
    const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, accountNickname: 'Nómina' } }));
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    const second = await launch(['--data', data]);
    const business = createBusinessClient({ baseUrl: second.url, auth: { credentials: tenant.businessCredentials } });
    const accounts = await orThrow(business.listBankAccounts({ params: { path: { clientId: tenant.clientId } } }));
    expect(accounts.map((a) => [a.id, a.accountNickname, a.status])).toEqual([[account.accountId, 'Nómina', 'in_review']]);
    second.child.kill('SIGTERM');
    expect(await second.exit).toEqual({ code: 0, signal: null });
  }, 90_000);

  it.each(['SIGINT', 'SIGTERM'] as const)('stops cleanly on %s: exit code 0, port closed, data reusable', async (signal) => {
    const data = join(work, `stop-${signal}`);
    const s = await launch(['--data', data]);
    s.child.kill(signal);
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect(s.output()).toContain(`Sandbox stopped (${signal}).`);
    await expect(fetch(`${s.url}/api/parameters/banks`)).rejects.toThrow();
    const again = await launch(['--data', data]);
    expect((await fetch(`${again.url}/api/parameters/banks`)).status).toBe(200);
    again.child.kill('SIGTERM');
    await again.exit;
  }, 90_000);
});
