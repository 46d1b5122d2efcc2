// The sandbox's command line as a careless user meets it, with real processes: every bad option or
// environment value is one line naming the option and what was wrong, exit status 2, no stack; options that
// contradict each other are refused; a second sandbox on a --data folder in use is refused naming the folder
// and the process holding it, and a folder left by a process killed with SIGKILL is taken over.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orThrow } from '../client/core/client.js';
import { createSandboxClient } from '../client/sandbox/client.js';
import { runSandboxToExit, type SandboxProcess, sandboxLauncher, sandboxRelay } from '../testing/sandbox-process.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-options-'));
const { launch, killAll } = sandboxLauncher();
let blocker: Server | undefined;
afterAll(async () => {
  killAll();
  if (blocker) await new Promise<void>((resolve) => blocker!.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

const refused = runSandboxToExit;

const aFile = join(work, 'not-a-folder');
writeFileSync(aFile, 'x');

describe.concurrent('bad options: one line naming the option, exit status 2, no stack', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['--data pointing at a file', ['--data', aFile], {}, /^--data: .*not-a-folder is a file, not a folder/],
    [
      '--database-url notaurl',
      ['--database-url', 'notaurl'],
      {},
      /^--database-url: "notaurl" is not a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    [
      'DATABASE_URL=notaurl',
      [],
      { DATABASE_URL: 'notaurl' },
      /^DATABASE_URL: "notaurl" is not a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    ['--port abc', ['--port', 'abc'], {}, /^--port: "abc" is not a port number \(a whole number from 0 to 65535\)/],
    ['--port=70000', ['--port=70000'], {}, /^--port: "70000" is not a port number/],
    ['SANDBOX_PORT=abc', [], { SANDBOX_PORT: 'abc' }, /^SANDBOX_PORT: "abc" is not a port number/],
    ['--memory --data DIR', ['--memory', '--data', join(work, 'd')], {}, /^--memory and --data contradict each other/],
    [
      '--data DIR --database-url URL',
      ['--data', join(work, 'd'), '--database-url', 'postgres://127.0.0.1:1/x'],
      {},
      /^--data and --database-url contradict each other/,
    ],
    [
      '--memory --database-url URL',
      ['--memory', '--database-url', 'postgres://127.0.0.1:1/x'],
      {},
      /^--memory and --database-url contradict each other/,
    ],
    ['--port given twice', ['--port', '4001', '--port', '4002'], {}, /^--port is given twice \(4001, 4002\)/],
    [
      '--endpoint-networks with a bad entry',
      ['--memory', '--endpoint-networks', 'loopback,intranet'],
      {},
      /^--endpoint-networks: "intranet" is neither loopback, private, any nor a CIDR block/,
    ],
    ['an unknown option', ['--colour'], {}, /^Unknown option --colour \(ramp-api sandbox --help lists the options\)/],
    ['--port without a value', ['--memory', '--port'], {}, /^--port needs a value/],
    [
      '--idle-timeout 0',
      ['--memory', '--idle-timeout', '0'],
      {},
      /^--idle-timeout: "0" is not a number of seconds \(a whole number from 1 to 3600\)/,
    ],
    [
      '--idle-timeout 1.5',
      ['--memory', '--idle-timeout=1.5'],
      {},
      /^--idle-timeout: "1\.5" is not a number of seconds/,
    ],
    [
      '--allowed-hosts with a bad entry',
      ['--memory', '--allowed-hosts', 'sandbox.test,bad host'],
      {},
      /^--allowed-hosts: "bad host" is not a host name/,
    ],
    [
      '--allowed-hosts with a port out of range',
      ['--memory', '--allowed-hosts', 'sandbox.test:99999'],
      {},
      /^--allowed-hosts: "sandbox\.test:99999": 99999 is not a port \(a whole number from 1 to 65535\)/,
    ],
    ['--port with the next option taken for its value', ['--port', '--memory'], {}, /^--port needs a value/],
    ['--admin-token', ['--memory', '--admin-token=secret'], {}, /^There is no --admin-token/],
    ['a stray word', ['--memory', 'extra'], {}, /^Unknown option extra/],
    [
      '--allowed-origins with a path',
      ['--memory', '--allowed-origins', 'http://127.0.0.1:4000/docs'],
      {},
      /^--allowed-origins: "http:\/\/127\.0\.0\.1:4000\/docs" is not an origin/,
    ],
    [
      'SANDBOX_PUBLIC_URL that is not http(s)',
      ['--memory'],
      { SANDBOX_PUBLIC_URL: 'ftp://sandbox.test' },
      /^SANDBOX_PUBLIC_URL: "ftp:\/\/sandbox\.test\/?" is not an origin/,
    ],
    [
      '--host with an address the machine does not have',
      ['--memory', '--host', '192.0.2.1'],
      { SANDBOX_ADMIN_TOKEN: 'a-token-of-sixteen-chars' },
      /^--host\/--port: cannot listen on 192\.0\.2\.1:0 \(EADDRNOTAVAIL\)/,
    ],
    [
      '--database-url of a server that is not there',
      ['--database-url', 'postgres://someone:hunter22@127.0.0.1:1/sandbox'],
      {},
      /^--database-url: cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\)/,
    ],
  ];
  it.each(cases)(
    '%s',
    async (_label, args, env, line) => {
      const { code, stderr } = await refused(args, env);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(line);
      expect(stderr).not.toMatch(/\n\s+at |Error:/);
      expect(stderr).not.toContain('hunter22');
      expect(code).toBe(2);
    },
    40_000,
  );

  it('a busy --port, refused before the store opens: nothing is written into a new --data folder', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const data = join(work, 'busy-port');
    const { code, stderr } = await refused(['--data', data, '--port', String(port)]);
    expect(stderr.trim().split('\n')).toEqual([
      `--port: 127.0.0.1:${port} is already in use; choose another port, or 0 for any free one.`,
    ]);
    expect(code).toBe(2);
    expect(readdirSync(data)).toEqual([]);
  }, 40_000);
});

describe.concurrent('one process per data folder', () => {
  // One folder through the life a user gives it: a second sandbox refused while the first serves, then the first
  // killed with SIGKILL and the folder taken over. The second test goes on with the sandbox the first left
  // serving (a start fewer), and starts one itself when it runs alone.
  describe.sequential('a folder in use', () => {
    const data = join(work, 'shared');
    const relay = sandboxRelay(data, launch);
    afterAll(relay.stop, 30_000);
    const control = (sandbox: SandboxProcess) => createSandboxClient({ baseUrl: sandbox.url });

    it('refuses a second sandbox on a --data folder in use, naming the folder and the process, and leaves the first serving', async () => {
      const first = await relay.take();
      const tenant = await orThrow(control(first).createTenant({ body: { name: 'First' } }));
      const second = await refused(['--data', data, '--port', '0']);
      expect(second.stderr.trim().split('\n')).toEqual([
        `--data: ${data} is in use by another sandbox (process ${first.child.pid}); stop it, or choose another folder.`,
      ]);
      expect(second.code).toBe(2);
      // The first keeps its data and serves, and goes on serving the folder for the next test. (That a sandbox
      // stopped with SIGTERM leaves the folder free for the next is bin.command.test.ts's 'stops cleanly on
      // SIGTERM: exit code 0, port closed, data reusable', which starts a sandbox on the folder again.)
      const again = await orThrow(control(first).createTenant({ body: { name: 'Second' } }));
      expect(again.clientId).not.toBe(tenant.clientId);
      relay.leave(first);
    }, 150_000);

    it('takes over a folder left by a process killed with SIGKILL, with its data', async () => {
      const first = await relay.take();
      await orThrow(control(first).createTenant({ body: { name: 'Kept' } }));
      const { tenants } = await orThrow(control(first).listTenants());
      expect(tenants.map((t) => t.name)).toContain('Kept');
      first.child.kill('SIGKILL');
      await first.exit;
      const second = await launch(['--data', data]);
      relay.leave(second);
      expect((await orThrow(control(second).listTenants())).tenants).toEqual(tenants);
      // And it holds the folder now: a third is refused, naming the second.
      const third = await refused(['--data', data, '--port', '0']);
      expect(third.stderr).toContain(`(process ${second.child.pid})`);
      expect(third.code).toBe(2);
    }, 150_000);
  });

  it('refuses a --data folder it cannot create, naming it', async () => {
    const blocked = join(aFile, 'inside');
    const { code, stderr } = await refused(['--data', blocked]);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^--data: cannot create .*not-a-folder\/inside \(ENOTDIR\)/),
    ]);
    expect(code).toBe(2);
  }, 40_000);
});

mkdirSync(join(work, 'd'), { recursive: true });
