// The control API's admin token: where it comes from (SANDBOX_ADMIN_TOKEN, --admin-token-file,
// never a command-line value), the refusal to listen beyond loopback without one (exit status 2), and the
// sandbox client that sends it and never shows it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { orThrow } from '../client/core/client.js';
import { ApiError, ConfigurationError } from '../client/core/errors.js';
import { launchSandbox, sandboxBin } from '../testing/sandbox-process.js';
import { registerExampleUser } from '../testing/sandbox-users.js';
import { parseArgs, runCli, UsageError } from './cli.js';
import { createSandboxClient } from '../client/sandbox/client.js';
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
    const child = spawn(process.execPath, [sandboxBin, 'sandbox', '--memory', '--port', '0', '--host', '0.0.0.0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SANDBOX_ADMIN_TOKEN: '', SANDBOX_HOST: '' },
    });
    let err = '';
    child.stderr.on('data', (c) => (err += String(c)));
    // Should the refusal ever break, the sandbox would listen on 0.0.0.0: it is killed rather than left running.
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    // 'close', not 'exit': what it printed may still be arriving when it has exited.
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve)).finally(() =>
      clearTimeout(killer),
    );
    expect(code).toBe(2);
    expect(err).toContain('Refusing to listen on 0.0.0.0');

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

describe('createSandboxClient with an admin token', () => {
  it('sends it as a bearer token, and never shows it in an error, even when the server echoes it', async () => {
    const server = createServer((req, res) => {
      const body = JSON.stringify({ error: 'unauthorized', message: `You sent ${req.headers.authorization}` });
      res.writeHead(401, { 'content-type': 'application/json', 'x-echo': String(req.headers.authorization) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createSandboxClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        adminToken: TOKEN,
      });
      const error = await orThrow(client.advanceClock({ body: { seconds: 1 } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const shown = [
        String(error),
        (error as Error).stack,
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        JSON.stringify((error as ApiError).headers),
      ].join('\n');
      expect(shown).toContain('You sent Bearer [REDACTED]');
      expect(shown).not.toContain(TOKEN);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('against a sandbox with an admin token: without it 401, with it the call is made, with a wrong one 401 that repeats nothing', async () => {
    const sandbox = await startSandbox({ memory: true, adminToken: TOKEN });
    try {
      const anonymous = await createSandboxClient({ baseUrl: sandbox.url }).advanceClock({ body: { seconds: 1 } });
      expect(anonymous.response.status).toBe(401);
      expect(
        (
          await orThrow(
            createSandboxClient({ baseUrl: sandbox.url, adminToken: TOKEN }).advanceClock({ body: { seconds: 1 } }),
          )
        ).offsetSeconds,
      ).toBe(1);
      const wrong = `${TOKEN}-but-not-quite`;
      const refused = await createSandboxClient({ baseUrl: sandbox.url, adminToken: wrong }).resetSandbox();
      expect(refused.response.status).toBe(401);
      expect(JSON.stringify(refused.error)).not.toContain(wrong.slice(4));
      expect(() => createSandboxClient({ baseUrl: sandbox.url, adminToken: '' })).toThrow(ConfigurationError);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('without an admin token: no token reaches every tenant, a tenant token only its own, any other token is refused', async () => {
    const sandbox = await startSandbox({ memory: true });
    try {
      const open = createSandboxClient({ baseUrl: sandbox.url });
      const a = await orThrow(open.createTenant({ body: { name: 'A' } }));
      const b = await orThrow(open.createTenant({ body: { name: 'B' } }));
      const userId = await registerExampleUser(sandbox.url, a);
      const grant = await fetch(`${sandbox.url}/api/v1/client/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b.v1Credentials),
      });
      const asB = createSandboxClient({
        baseUrl: sandbox.url,
        adminToken: ((await grant.json()) as { access_token: string }).access_token,
      });
      expect((await asB.approveUser({ params: { path: { userId } } })).response.status).toBe(404);
      expect((await asB.resetSandbox()).response.status).toBe(401);
      expect(
        (
          await createSandboxClient({ baseUrl: sandbox.url, adminToken: TOKEN }).approveUser({
            params: { path: { userId } },
          })
        ).response.status,
      ).toBe(401);
      expect((await orThrow(open.approveUser({ params: { path: { userId } } }))).status).toBe('approved');
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
