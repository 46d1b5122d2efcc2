// Test and bench support: `ramp-api sandbox ARGS` in its own Node process, from the built package
// (src/sandbox/dist/, which the tests' global setup builds) as a consumer runs it, resolved once it has printed
// its addresses.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { watchProcess } from './watchdog.js';

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The built package's command (`ramp-api-sandbox`). */
export const sandboxBin = join(import.meta.dirname, '..', 'sandbox', 'dist', 'bin.js');
// A sandbox outlives nothing that started it: whatever ends this process (an exit, a signal turned into one)
// asks the sandboxes still running to stop.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

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
  running.add(child);
  // Stopped even if this process ends without its exit hook (killed, or a test runner ending its worker).
  const guard = watchProcess(child.pid!);
  // 'close', not 'exit': once it resolves, everything the process printed has arrived.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      guard.release();
      running.delete(child);
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
