// Test and bench support, the one way a test starts the sandbox as a process of its own: `ramp-api sandbox
// ARGS` from the built package (src/sandbox/dist/, which the tests' global setup builds) as a consumer runs it.
// `launchSandbox` resolves once it has printed its addresses; `runSandboxToExit` runs a command expected to end
// (a refused option) to its exit. A sandbox started in the test's own process comes from ./sandbox-fixture.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot } from './repo.js';
import { watchProcess } from './watchdog.js';

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The built package's command (`ramp-api-sandbox`). */
export const sandboxBin = join(import.meta.dirname, '..', 'sandbox', 'dist', 'bin.js');

export interface LaunchOptions {
  /**
   * The open-files limit (`ulimit -n`) to start the process with, as a machine with that common default would:
   * the command runs through `sh -c 'ulimit -n N && exec node ...'`, so signals still reach the sandbox itself.
   */
  openFiles?: number;
  /** Another build's `bin.js` to run instead of this tree's (a benchmark of before against after). */
  bin?: string;
}

export async function launchSandbox(args: string[], options: LaunchOptions = {}): Promise<SandboxProcess> {
  const command = [process.execPath, options.bin ?? sandboxBin, 'sandbox', '--port', '0', ...args];
  const [file, ...argv] =
    options.openFiles === undefined
      ? command
      : ['/bin/sh', '-c', `ulimit -n ${options.openFiles} && exec "$@"`, 'sh', ...command];
  const child = spawn(file!, argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SANDBOX_PORT: '', DATABASE_URL: '' },
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  child.stderr!.on('data', (chunk) => (out += String(chunk)));
  // A sandbox outlives nothing that started it: the watchdog stops it whatever ends this process.
  const guard = watchProcess(child.pid!);
  // 'close', not 'exit': once it resolves, everything the process printed has arrived.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      guard.release();
      resolve({ code, signal });
    }),
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The sandbox did not print its address within 60 s:\n${out}`)),
        60_000,
      );
      child.stdout!.on('data', () => {
        const m = /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m && out.includes('Ctrl-C to stop.')) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exit.then(() => reject(new Error(`The sandbox exited before printing its address:\n${out}`)));
    });
    return { child, url, output: () => out, exit };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/**
 * `ramp-api sandbox ARGS` run to its exit, with the sandbox's environment variables cleared but for `env`;
 * killed after 30 s, so a sandbox that started by mistake is not left running.
 */
export function runSandboxToExit(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [sandboxBin, 'sandbox', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SANDBOX_PORT: '', DATABASE_URL: '', SANDBOX_HOST: '', SANDBOX_ADMIN_TOKEN: '', ...env },
  });
  const guard = watchProcess(child.pid!);
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  child.stdout!.on('data', (c) => (stdout += String(c)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  // 'close', not 'exit': the output may still be arriving when the process has exited.
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(killer);
      guard.release();
      resolve({ code, stderr, stdout });
    }),
  );
}

/** Stops a launched sandbox: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopSandbox(sandbox: SandboxProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!sandbox) return;
  sandbox.child.kill('SIGTERM');
  const killer = setTimeout(() => sandbox.child.kill('SIGKILL'), graceMs);
  await sandbox.exit.finally(() => clearTimeout(killer));
}

/**
 * Sends SIGTERM and waits at most `waitMs` for the exit: how it exited (null if it had not) and how long it took.
 * The process is left running past the wait; the caller's afterAll kills it.
 */
export async function terminate(
  sandbox: SandboxProcess,
  waitMs: number,
): Promise<{ exit: { code: number | null; signal: NodeJS.Signals | null } | null; ms: number }> {
  const signalled = performance.now();
  sandbox.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    sandbox.exit,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  return { exit, ms: performance.now() - signalled };
}

/**
 * The sandbox processes of one test file: `launch(args)` starts one and remembers it; `killAll()`, for afterAll,
 * kills with SIGKILL whatever a test that failed half-way left running.
 */
export function sandboxLauncher() {
  const started: ChildProcess[] = [];
  return {
    async launch(args: string[]): Promise<SandboxProcess> {
      const sandbox = await launchSandbox(args);
      started.push(sandbox.child);
      return sandbox;
    },
    killAll(): void {
      for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * One --data folder that the tests of a sequential block go on with, each from where the one before left it:
 * `take()` gives the sandbox the test before left serving the folder (a start fewer for each test), or starts one
 * with `launch` when there is none (a test run alone); `leave()` hands a running one on to the next test;
 * `stop()` stops what is left, for afterAll.
 */
export function sandboxRelay(dataDir: string, launch: (args: string[]) => Promise<SandboxProcess>) {
  let serving: SandboxProcess | undefined;
  return {
    async take(): Promise<SandboxProcess> {
      const running = serving ?? (await launch(['--data', dataDir]));
      serving = undefined;
      return running;
    },
    leave(running: SandboxProcess): void {
      serving = running;
    },
    stop: () => stopSandbox(serving),
  };
}

/** The resident memory of a process, in MiB, from /proc. */
export function residentMib(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024;
}
