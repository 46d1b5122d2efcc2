// The Redocly CLI as the build runs it: this repository's copy, without telemetry or update notices; and a job
// of one or more CLI runs whose output is then moved into place, run to its end (blocking, for the scripts) or
// with its runs at once (for the build, whose PGlite snapshot works in the same process meanwhile).
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { redoclyEnv as redoclyEnvOf, withoutNodeNotice } from '../../src/sandbox/journeys/redocly.js';
import { repoRoot } from './apis.js';

export const redoclyBin = join(repoRoot, 'node_modules', '.bin', 'redocly');
export const redoclyEnv = redoclyEnvOf();

export interface RedoclyJob {
  /** The CLI's arguments, one entry per run; none when there is nothing to make. */
  runs: string[][];
  /** Checks what the runs wrote and moves it into place. */
  finish: () => void;
  /** Removes what the runs left aside (also when one failed). */
  clean: () => void;
}

const failed = (args: string[], error: unknown): Error => {
  const { stderr, stdout } = error as { stderr?: Buffer | string; stdout?: Buffer | string };
  return new Error(
    `redocly ${args[0]} failed:\n${withoutNodeNotice(String(stderr ?? ''))}${String(stdout ?? '')}`.trimEnd(),
    {
      cause: error,
    },
  );
};

/** Runs the job's runs one after another, then finishes it. */
export function runRedoclyJob(job: RedoclyJob): void {
  try {
    for (const args of job.runs) {
      try {
        execFileSync(redoclyBin, args, { cwd: repoRoot, env: redoclyEnv, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        throw failed(args, error);
      }
    }
    job.finish();
  } finally {
    job.clean();
  }
}

/** Runs the job's runs at once, without blocking this process, then finishes it. */
export async function runRedoclyJobAsync(job: RedoclyJob): Promise<void> {
  try {
    const runs = await Promise.allSettled(
      job.runs.map((args) => promisify(execFile)(redoclyBin, args, { cwd: repoRoot, env: redoclyEnv })),
    );
    runs.forEach((run, i) => {
      if (run.status === 'rejected') throw failed(job.runs[i]!, run.reason);
    });
    job.finish();
  } finally {
    job.clean();
  }
}
