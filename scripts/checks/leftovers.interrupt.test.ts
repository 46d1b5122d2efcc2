// Nothing left behind: `npm start` stopped by Ctrl-C (SIGINT to its whole process group, as a
// terminal sends it) or by SIGTERM to the npm process, once or twice, during its start or once it serves; and a
// vitest run of this repository interrupted by Ctrl-C during its global setup or during a test, or ended by a
// test's time limit. Each run gets a TMPDIR of its own: every temporary folder it makes lands there, and every
// process it starts carries it (in its environment, or in its command line for PostgreSQL's server). After
// the run, no process may refer to it and it must be empty. `npm run test:interrupts` (CI runs it after
// `npm test`): each case is a whole run of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killTree } from '../../src/testing/process-tree.js';
import { repoRoot } from '../openapi/apis.js';

const runs: ChildProcess[] = [];
const folders: string[] = [];
afterAll(() => {
  for (const child of runs) if (child.pid) killTree(child.pid, 'SIGKILL');
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Processes (other than this one) that refer to `dir`: in their environment or their command line. */
function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (environ.some((v) => v === `TMPDIR=${dir}` || v.startsWith(`TMPDIR=${dir}/`)) || cmdline.includes(dir))
        found.push(`${entry}: ${cmdline.slice(0, 160)}`);
    } catch {
      // gone meanwhile, or a kernel thread
    }
  }
  return found;
}

/** Polls `check` until it returns true, for at most `limitMs`; throws naming `what` when it never did. */
async function until(
  what: string,
  check: () => boolean,
  limitMs: number,
  detail: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s. ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Run {
  child: ChildProcess;
  dir: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `command` in a process group of its own (so a "Ctrl-C" can reach all of it), with a TMPDIR of its own. */
function startRun(command: string, args: string[], env: Record<string, string> = {}): Run {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-leftovers-'));
  // As /tmp is: PostgreSQL's server runs as its own user, in a folder made inside.
  chmodSync(dir, 0o755);
  folders.push(dir);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'RAMP_TEST_RUN_TMPDIR'),
  );
  const child = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, TMPDIR: dir, PORT: '', SANDBOX_PORT: '', ...env },
  });
  runs.push(child);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  child.stderr!.on('data', (chunk) => (out += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, dir, output: () => out, exited };
}

/** What a terminal's Ctrl-C does: SIGINT to every process of the foreground group. */
const ctrlC = (run: Run) => process.kill(-run.child.pid!, 'SIGINT');

/**
 * What a run left in its TMPDIR: everything but tsx's compile cache (`tsx-<uid>`), which tsx keeps between
 * runs on purpose, as npm keeps its own cache.
 */
const leftIn = (dir: string) => readdirSync(dir).filter((name) => !/^tsx-\d+$/.test(name));

/** After the run has exited: no process left that refers to its TMPDIR, and nothing left in it. */
async function expectNothingLeft(run: Run): Promise<void> {
  await run.exited;
  await until(
    'every process of the run gone',
    () => processesUsing(run.dir).length === 0,
    30_000,
    () => `Still running:\n${processesUsing(run.dir).join('\n')}\nOutput:\n${run.output()}`,
  );
  await until(
    "the run's temporary folders removed",
    () => leftIn(run.dir).length === 0,
    10_000,
    () => `Left in ${run.dir}: ${leftIn(run.dir).join(', ')}\nOutput:\n${run.output()}`,
  );
}

const LIMIT = 120_000;

// One after another: each `npm start` builds the docs site into the same site/ folder.
describe.sequential('npm start', () => {
  const npmStart = () => startRun('npm', ['start', '--silent']);
  const ready = (run: Run) =>
    until('npm start printing "Ctrl-C to stop."', () => run.output().includes('Ctrl-C to stop.'), LIMIT, run.output);
  /** Start-up under way: a Prism mock of the run's is running (what comes before it is the docs build). */
  const starting = (run: Run) =>
    until(
      'a Prism mock of npm start running',
      () => processesUsing(run.dir).some((p) => p.includes('prism')),
      LIMIT,
      run.output,
    );

  it(
    'Ctrl-C once, once it serves',
    async () => {
      const run = npmStart();
      await ready(run);
      ctrlC(run);
      await expectNothingLeft(run);
      expect(run.output()).toContain('Stopping...');
    },
    LIMIT * 2,
  );

  it(
    'Ctrl-C twice in quick succession, once it serves',
    async () => {
      const run = npmStart();
      await ready(run);
      ctrlC(run);
      ctrlC(run);
      await expectNothingLeft(run);
      expect(run.output()).toContain('Stopping...');
    },
    LIMIT * 2,
  );

  it(
    'SIGTERM to npm once, during the start',
    async () => {
      const run = npmStart();
      await starting(run);
      run.child.kill('SIGTERM');
      await expectNothingLeft(run);
      expect(run.output()).not.toContain('Ctrl-C to stop.');
    },
    LIMIT * 2,
  );

  it(
    'SIGTERM to npm twice, once it serves',
    async () => {
      const run = npmStart();
      await ready(run);
      run.child.kill('SIGTERM');
      run.child.kill('SIGTERM');
      await expectNothingLeft(run);
      expect(run.output()).toContain('Stopping...');
    },
    LIMIT * 2,
  );
});

describe.concurrent('a vitest run of this repository', () => {
  const vitest = (env: Record<string, string> = {}) =>
    // CONTRACT_SKIP_BUNDLE: no build in these runs (this suite's own global setup built the packages), as in a
    // nested run; three runs at once rewriting the packages would change them under each other's sandboxes.
    startRun(
      join(repoRoot, 'node_modules', '.bin', 'vitest'),
      ['run', '--config', 'scripts/checks/fixtures/leftovers/vitest.config.ts'],
      { NO_COLOR: '1', CONTRACT_SKIP_BUNDLE: '1', ...env },
    );

  it(
    'Ctrl-C during the global setup (its PostgreSQL cluster started)',
    async () => {
      const run = vitest();
      await until(
        "the run's PostgreSQL server running",
        () => processesUsing(run.dir).some((p) => /postgres.*-D/.test(p)),
        LIMIT,
        run.output,
      );
      ctrlC(run);
      await expectNothingLeft(run);
    },
    LIMIT * 2,
  );

  it(
    'Ctrl-C during a test that started a sandbox process and a Prism mock',
    async () => {
      const run = vitest();
      await until(
        'the fixture test saying it started',
        () => run.output().includes('LEFTOVERS-STARTED'),
        LIMIT,
        run.output,
      );
      ctrlC(run);
      await expectNothingLeft(run);
    },
    LIMIT * 2,
  );

  it(
    'a test that times out after it started a sandbox process and a Prism mock',
    async () => {
      const run = vitest({ LEFTOVERS_TEST_TIMEOUT: '15000' });
      expect(await run.exited).not.toBe(0);
      expect(run.output()).toContain('LEFTOVERS-STARTED');
      expect(run.output()).toMatch(/Test timed out in 15000ms/);
      await expectNothingLeft(run);
    },
    LIMIT * 2,
  );
});
