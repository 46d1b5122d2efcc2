// The local servers keep their promises to a person at a terminal: SIGTERM to the npm process stops everything
// it started, a busy or bad port given to `npm start` is one clear line and a non-zero exit, and running mocks
// keep answering while the bundle they were started from is rewritten.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUnavailable } from '../../src/testing/postgres.js';
import { killTree } from '../../src/testing/process-tree.js';
import { apiFamilies, repoRoot } from '../openapi/apis.js';
import { startPrism } from '../openapi/prism.js';

const started: ChildProcess[] = [];
afterAll(() => {
  // npm and whatever it started (node, Prism, PostgreSQL's pg_ctl): a test that failed half-way leaves nothing.
  for (const child of started)
    if (child.pid && child.exitCode === null && child.signalCode === null) killTree(child.pid, 'SIGKILL');
});

/** Runs `npm run <script>` as a person would, collecting its output. */
function npm(script: string, env: Record<string, string> = {}, args: string[] = []) {
  return collecting('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], env);
}

/**
 * Runs the command of package.json's `script` as `npm run` does (`sh -c` in the repository, with
 * node_modules/.bin first on PATH), without npm itself: for a test of what the script does, which need not pay
 * for npm's own start; the tests of what npm passes on (SIGTERM) run npm.
 */
function script(name: string, env: Record<string, string> = {}) {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const path = `${join(repoRoot, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;
  return collecting('/bin/sh', ['-c', scripts[name]!], { ...env, PATH: path });
}

/** Runs a command in the repository, collecting its output. */
function collecting(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // 'close', not 'exit': what it printed may still be arriving when it has exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const printed = (text: string, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${out}\n${err}`)),
        timeoutMs,
      );
      const check = () => {
        if (out.includes(text)) {
          clearTimeout(timer);
          resolve(out);
        } else setTimeout(check, 50);
      };
      check();
    });
  return { child, exited, printed, output: () => ({ out, err }) };
}

const answers = (url: string) =>
  fetch(`${url}/api/parameters/banks`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

// Each test starts its own processes on free ports: they run side by side, most of their time being spent
// waiting for processes to start and stop.
describe.concurrent('npm run mock', () => {
  it('stops both Prism mocks when the npm process itself gets SIGTERM', async () => {
    const run = npm('mock');
    const out = await run.printed('Ctrl-C to stop.');
    const urls = [...out.matchAll(/mock: (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1]!);
    expect(urls).toHaveLength(apiFamilies().length);
    for (const url of urls) expect(await answers(url)).toBe(true);
    run.child.kill('SIGTERM');
    await run.exited;
    for (const url of urls) expect(await answers(url), `${url} still answers after SIGTERM`).toBe(false);
  }, 90_000);
});

describe.concurrent('npm start (its command, without npm)', () => {
  let blocker: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

  it('on a busy PORT prints one clear line and exits non-zero', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const start = script('start', { PORT: String(port) });
    expect(await start.exited).not.toBe(0);
    const { err } = start.output();
    expect(err.trim().split('\n')).toEqual([
      `Port ${port} on 127.0.0.1 is already in use: set PORT to a free port, or leave it unset to use any free one.`,
    ]);
  }, 60_000);

  it.each([['PORT'], ['SANDBOX_PORT']])(
    'with %s=abc prints one line naming it, no stack, and exits with status 2',
    async (name) => {
      const start = script('start', { [name]: 'abc' });
      expect(await start.exited).toBe(2);
      const { err } = start.output();
      expect(err.trim().split('\n')).toEqual([`${name}: "abc" is not a port number (a whole number from 0 to 65535).`]);
    },
    60_000,
  );
});

describe.concurrent('Prism mocks', () => {
  it('keep answering while the bundle they were started from is rewritten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-rewrite-'));
    const bundle = join(dir, 'business.json');
    copyFileSync(apiFamilies().find((api) => api.name === 'business')!.bundleJson, bundle);
    const mock = await startPrism({ bundle });
    try {
      const failures: unknown[] = [];
      let answered = 0;
      const deadline = Date.now() + 2500;
      // What `npm run bundle` does after an edit: the same path, new content (Prism ignores an identical rewrite).
      // Prism waits for the file to settle before it restarts, so two edits with a pause between them.
      let edits = 0;
      const edit = () => {
        const doc = JSON.parse(readFileSync(bundle, 'utf8')) as { info: { description: string } };
        doc.info.description += ` (edit ${++edits})`;
        writeFileSync(bundle, JSON.stringify(doc));
      };
      const rewrites = [setTimeout(edit, 300), setTimeout(edit, 1300)];
      while (Date.now() < deadline) {
        // node:http without an agent: one connection per request and no silent retry, as many clients do.
        const status = await new Promise<number | Error>((resolve) => {
          get(`${mock.url}/api/parameters/banks`, { agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          }).on('error', resolve);
        });
        if (status === 200) answered++;
        else failures.push(status);
        // Paced, not as many requests as the machine can make: a restart of Prism drops connections for far
        // longer than the pace, so a paced loop still meets it.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      rewrites.forEach(clearTimeout);
      expect(edits).toBe(2);
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(10);
    } finally {
      await mock.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.concurrent('npm run sandbox:load', () => {
  it.skipIf(postgresUnavailable() !== null)(
    'stops both sandboxes and its PostgreSQL when the npm process itself gets SIGTERM',
    async () => {
      const run = npm('sandbox:load', {}, ['--clients', '1', '--seconds', '60']);
      const out = await run.printed('receivers:');
      const sandboxes = [...out.matchAll(/(http:\/\/127\.0\.0\.1:\d+)[,;]/g)].map((m) => m[1]!).slice(0, 2);
      const pgPort = Number(/PostgreSQL at 127\.0\.0\.1:(\d+)/.exec(out)![1]);
      expect(sandboxes).toHaveLength(2);
      run.child.kill('SIGTERM');
      await run.exited;
      // What it stops is stopped within seconds of its own exit, not when the 60 s of load end.
      const pgListens = () =>
        new Promise<boolean>((resolve) => {
          const socket = createConnection(pgPort, '127.0.0.1')
            .once('connect', () => {
              socket.destroy();
              resolve(true);
            })
            .once('error', () => resolve(false));
        });
      const deadline = Date.now() + 15_000;
      const stillUp = async () =>
        [
          ...(await Promise.all(sandboxes.map(async (url) => ((await answers(url)) ? url : null)))),
          (await pgListens()) ? `PostgreSQL at 127.0.0.1:${pgPort}` : null,
        ].filter(Boolean);
      let up = await stillUp();
      while (up.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        up = await stillUp();
      }
      expect(up, 'still answering 15 s after npm got SIGTERM').toEqual([]);
    },
    120_000,
  );
});
