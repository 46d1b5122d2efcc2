// `npm run sandbox:load` keeps the promise of the local servers to a person at a terminal (as
// scripts/checks/processes.command.test.ts holds the others to it): SIGTERM to the npm process stops both
// sandboxes and the PostgreSQL cluster it started within seconds, not when its load time ends. On PostgreSQL, so in
// `npm run test:postgres`.
import { createConnection } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { answers, scriptRunner } from '../../src/testing/npm-run.js';

const { npm, stopAll } = scriptRunner();
afterAll(stopAll);

describe('npm run sandbox:load', () => {
  it('stops both sandboxes and its PostgreSQL when the npm process itself gets SIGTERM', async () => {
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
  }, 120_000);
});
