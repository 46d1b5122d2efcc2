// Test support: this repository's npm scripts run as a person runs them, their output collected, and every
// process a file started stopped when the file ends (also when a test failed half-way).
//
//   const runs = scriptRunner(); afterAll(runs.stopAll);
//   runs.npm('mock')            `npm run --silent mock`, through npm itself (for what npm passes on: SIGTERM)
//   runs.script('start', env)   the script's command as `npm run` runs it, without npm's own start
//   await run.printed(text)     resolves with the output once it contains `text`; run.exited, run.output()
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { killTree } from './process-tree.js';
import { repoRoot } from './repo.js';

export interface CollectedRun {
  child: ChildProcess;
  /** The exit code, once its output has been read to the end. */
  exited: Promise<number | null>;
  printed(text: string, timeoutMs?: number): Promise<string>;
  output(): { out: string; err: string };
}

/** Whether the mock or sandbox at `url` answers a request within 2 s. */
export const answers = (url: string): Promise<boolean> =>
  fetch(`${url}/api/parameters/banks`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

/** Runs a command in the repository, collecting its output. */
function collecting(command: string, args: string[], env: Record<string, string>): CollectedRun {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** The runs of one test file; see the header. */
export function scriptRunner() {
  const started: ChildProcess[] = [];
  const run = (command: string, args: string[], env: Record<string, string>) => {
    const collected = collecting(command, args, env);
    started.push(collected.child);
    return collected;
  };
  return {
    /** Runs `npm run <script>` as a person would. */
    npm: (script: string, env: Record<string, string> = {}, args: string[] = []) =>
      run('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], env),
    /**
     * Runs the command of package.json's `script` as `npm run` does (`sh -c` in the repository, with
     * node_modules/.bin first on PATH), without npm itself: for a test of what the script does, which need not
     * pay for npm's own start; the tests of what npm passes on (SIGTERM) run npm.
     */
    script: (name: string, env: Record<string, string> = {}) => {
      const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      const path = `${join(repoRoot, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;
      return run('/bin/sh', ['-c', scripts[name]!], { ...env, PATH: path });
    },
    /** npm and whatever it started (node, Prism, PostgreSQL's pg_ctl): a test that failed half-way leaves nothing. */
    stopAll: () => {
      for (const child of started)
        if (child.pid && child.exitCode === null && child.signalCode === null) killTree(child.pid, 'SIGKILL');
    },
  };
}
