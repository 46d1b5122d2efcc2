// Test support: a small process that outlives this one only to clean up after it. Processes this one starts (a
// sandbox, Prism) and folders it makes are registered with it; when this process ends in any way, an exit, a
// signal, SIGKILL, a test runner ending a worker whose test timed out, the pipe between them closes, and the
// watchdog stops the processes still registered (SIGTERM, then SIGKILL after 3 s) and removes the folders.
// What this process stops and removes itself it unregisters, so a pid used again later is never signalled. It
// runs in a session of its own, out of reach of the Ctrl-C that may have ended this process.
import { type ChildProcess, spawn } from 'node:child_process';

const SCRIPT = `
const { rmSync } = require('node:fs');
const pids = new Set();
const dirs = new Set();
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let i = buffered.indexOf('\\n'); i >= 0; i = buffered.indexOf('\\n')) {
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    const space = line.indexOf(' ');
    const [op, arg] = [line.slice(0, space), line.slice(space + 1)];
    if (op === 'pid') pids.add(Number(arg));
    else if (op === 'unpid') pids.delete(Number(arg));
    else if (op === 'dir') dirs.add(arg);
    else if (op === 'undir') dirs.delete(arg);
  }
});
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const signal = (pid, name) => { try { process.kill(pid, name); } catch {} };
let cleaning = false;
const clean = () => {
  if (cleaning) return;
  cleaning = true;
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 3000;
  const wait = () => {
    const left = [...pids].filter(alive);
    if (left.length && Date.now() < deadline) return setTimeout(wait, 50);
    for (const pid of left) signal(pid, 'SIGKILL');
    for (const dir of dirs) { try { rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }); } catch {} }
    process.exit(0);
  };
  wait();
};
process.stdin.on('end', clean);
process.stdin.on('error', clean);
process.stdin.resume();
`;

/** The process's one watchdog, started with the first registration. */
let watchdog: ChildProcess | undefined;

function send(line: string): void {
  if (!watchdog) {
    watchdog = spawn(process.execPath, ['-e', SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    // Neither the watchdog nor the pipe to it keeps this process alive.
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
    watchdog.stdin!.on('error', () => undefined);
  }
  watchdog.stdin!.write(`${line}\n`);
}

/** `pid` is stopped if this process ends before `release()` is called. */
export function watchProcess(pid: number): { release(): void } {
  send(`pid ${pid}`);
  return { release: () => send(`unpid ${pid}`) };
}

/** `dir` is removed if this process ends before `release()` is called. */
export function watchFolder(dir: string): { release(): void } {
  send(`dir ${dir}`);
  return { release: () => send(`undir ${dir}`) };
}
