// The local servers keep their promises to a person at a terminal: SIGTERM to the npm process stops everything
// it started, a busy or bad port given to `npm start` is one clear line and a non-zero exit, and running mocks
// keep answering while the bundle they were started from is rewritten. (`npm run sandbox:load`, which needs
// PostgreSQL, is held to the same in scripts/bench/load-signals.postgres.test.ts.)
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answers, scriptRunner } from '../../src/testing/npm-run.js';
import { apiFamilies } from '../openapi/apis.js';
import { startPrism } from '../openapi/prism.js';

const { npm, script, stopAll } = scriptRunner();
afterAll(stopAll);

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
