import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orThrow } from '../client/core/client.js';
import { createSandboxClient } from '../client/sandbox/client.js';
import { launchSandbox, runSandboxToExit } from '../testing/sandbox-process.js';
import { parseArgs, runCli, UsageError } from './cli.js';
import { startSandbox } from './server.js';

const TOKEN = `adm_${randomUUID()}`;
const dir = mkdtempSync(join(tmpdir(), 'sandbox-admin-'));
const tokenFile = join(dir, 'admin-token');
writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseArgs(args, env, dir);

describe('the sandbox command line', () => {
  it('listens on 127.0.0.1 without a token by default, and takes --host / SANDBOX_HOST', () => {
    expect(parse([])).toMatchObject({ host: '127.0.0.1', adminToken: undefined });
    expect(parse(['--host', '::1']).host).toBe('::1');
    expect(parse(['--host=localhost']).host).toBe('localhost');
    expect(parse([], { SANDBOX_HOST: '127.0.0.2' }).host).toBe('127.0.0.2');
  });

  it('takes the admin token from SANDBOX_ADMIN_TOKEN or --admin-token-file, and refuses it as a command-line value without repeating it', () => {
    expect(parse([], { SANDBOX_ADMIN_TOKEN: TOKEN }).adminToken).toBe(TOKEN);
    expect(parse(['--admin-token-file', 'admin-token']).adminToken).toBe(TOKEN);
    expect(parse([`--admin-token-file=${tokenFile}`]).adminToken).toBe(TOKEN);
    for (const args of [['--admin-token', TOKEN], [`--admin-token=${TOKEN}`]]) {
      const error = (() => {
        try {
          parse(args);
        } catch (e) {
          return e as Error;
        }
        throw new Error('accepted');
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toMatch(/SANDBOX_ADMIN_TOKEN or --admin-token-file/);
      expect(error.message).not.toContain(TOKEN);
    }
    expect(() => parse(['--admin-token-file', 'missing'])).toThrow(/cannot read missing \(ENOENT\)/);
    expect(() => parse([], { SANDBOX_ADMIN_TOKEN: 'short' })).toThrow(/at least 16 characters/);
  });

  it('refuses any address that is not loopback without an admin token, and allows it with one', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'sandbox.example']) {
      expect(() => parse(['--host', host]), host).toThrow(UsageError);
      expect(() => parse(['--host', host]), host).toThrow(
        `Refusing to listen on ${host}, which is not a loopback address, without an admin token`,
      );
      expect(parse(['--host', host], { SANDBOX_ADMIN_TOKEN: TOKEN }).host).toBe(host);
    }
    expect(() => parse([], { SANDBOX_HOST: '0.0.0.0' })).toThrow(UsageError);
  });

  it('runCli prints why and sets exit status 2; startSandbox refuses the same', async () => {
    const errors: string[] = [];
    const original = console.error;
    const saved = { host: process.env.SANDBOX_HOST, token: process.env.SANDBOX_ADMIN_TOKEN };
    delete process.env.SANDBOX_HOST;
    delete process.env.SANDBOX_ADMIN_TOKEN;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      expect(await runCli(['sandbox', '--host', '0.0.0.0', '--memory'])).toBeUndefined();
      expect(process.exitCode).toBe(2);
    } finally {
      console.error = original;
      process.exitCode = 0;
      Object.assign(
        process.env,
        saved.host === undefined ? {} : { SANDBOX_HOST: saved.host },
        saved.token === undefined ? {} : { SANDBOX_ADMIN_TOKEN: saved.token },
      );
    }
    expect(errors.join('\n')).toMatch(
      /Refusing to listen on 0\.0\.0\.0.*Set SANDBOX_ADMIN_TOKEN \(or --admin-token-file FILE\)/s,
    );
    await expect(startSandbox({ memory: true, host: '0.0.0.0' })).rejects.toThrow(/not a loopback address/);
  });

  it('as a real process: exits with status 2 on 0.0.0.0 without a token, and serves the control API with the token from a file', async () => {
    // Should the refusal ever break, the sandbox would listen on 0.0.0.0: it is killed rather than left running.
    const { code, stderr } = await runSandboxToExit(['--memory', '--port', '0', '--host', '0.0.0.0']);
    expect(code).toBe(2);
    expect(stderr).toContain('Refusing to listen on 0.0.0.0');

    const running = await launchSandbox(['--memory', '--admin-token-file', tokenFile]);
    try {
      expect(running.output()).toContain('admin token required');
      expect(running.output()).not.toContain(TOKEN);
      const anonymous = await fetch(`${running.url}/sandbox/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      expect(anonymous.status).toBe(401);
      const tenant = await orThrow(
        createSandboxClient({ baseUrl: running.url, adminToken: TOKEN }).createTenant({
          body: { name: 'With the token' },
        }),
      );
      expect(tenant.name).toBe('With the token');
    } finally {
      running.child.kill('SIGTERM');
      await running.exit;
    }
  }, 60_000);
});
