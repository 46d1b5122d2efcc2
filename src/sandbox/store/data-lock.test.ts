// The data-folder lock and a holder killed with SIGKILL whose parent has not reaped it yet: a zombie still
// answers `kill(pid, 0)`, yet it runs no more and holds nothing, so the folder is taken over at once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { until } from '../../testing/until.js';
import { lockDataFolder } from './data-lock.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-data-lock-'));
let parent: ChildProcess | undefined;
let holderPid: number | undefined;

/** The state letter of process `pid` (field 3 of /proc/PID/stat), or null when it is gone. */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

afterAll(() => {
  for (const pid of [holderPid, parent?.pid]) {
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  rmSync(work, { recursive: true, force: true });
});

it.skipIf(process.platform !== 'linux')(
  'takes over a folder whose holder was killed with SIGKILL and is not reaped yet (a zombie)',
  async () => {
    const dir = join(work, 'data');
    const lockModule = join(import.meta.dirname, 'data-lock.ts');
    const holder = `const { lockDataFolder } = await import(${JSON.stringify(lockModule)});
lockDataFolder(${JSON.stringify(dir)});
console.log('locked ' + process.pid);
setInterval(() => {}, 1000);`;
    // The holder runs in the background of a shell that then becomes `sleep`: its parent never waits for it, so
    // once killed it stays a zombie (this process is not its parent and cannot reap it).
    parent = spawn('/bin/sh', ['-c', 'node --import tsx --input-type=module -e "$1" & exec sleep 60', 'sh', holder], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: join(import.meta.dirname, '..', '..'),
    });
    let out = '';
    parent.stdout!.on('data', (chunk) => (out += String(chunk)));
    parent.stderr!.on('data', (chunk) => (out += String(chunk)));
    await until(() => /locked \d+/.test(out), `the holder to take the lock (output: ${out})`, 15_000);
    holderPid = Number(/locked (\d+)/.exec(out)![1]);
    expect(() => lockDataFolder(dir), 'while the holder runs').toThrow(/in use by another sandbox/);

    process.kill(holderPid, 'SIGKILL');
    await until(() => stateOf(holderPid!) === 'Z', 'the killed holder to be a zombie');
    const lock = lockDataFolder(dir);
    lock.release();
  },
  30_000,
);
