// Vitest global setup: one temporary folder for the whole run, made the run's TMPDIR, so every temporary folder
// a test makes, in a worker or in a process it starts (sandboxes, Prism's copies, npm's projects), lands in it.
// It is removed when the run ends, and also when the run is interrupted: on Ctrl-C or SIGTERM vitest leaves
// through process.exit, so this exit hook runs, while its workers, killed by the same Ctrl-C, ran no afterAll
// of their own. A nested run (a test that starts vitest) uses its parent's.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export const RUN_TMPDIR_ENV = 'RAMP_TEST_RUN_TMPDIR';

export default function setup(project: TestProject): (() => void) | undefined {
  // Vitest's own folder of transformed modules, made in the temporary folder before any setup ran: vitest
  // removes it when it closes, which an interrupted run does not do. Internal to vitest (TestProject.tmpDir).
  const vitestDir = (project as unknown as { tmpDir?: unknown }).tmpDir;
  if (typeof vitestDir === 'string' && vitestDir.startsWith(tmpdir()))
    process.once('exit', () => rmSync(vitestDir, { recursive: true, force: true }));
  if (process.env[RUN_TMPDIR_ENV]) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ramp-test-run-'));
  // Readable by others, as /tmp is: the PostgreSQL clusters tests start run as the postgres user, inside it.
  chmodSync(dir, 0o755);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  process.env[RUN_TMPDIR_ENV] = dir;
  // Retried: a process stopping at that moment (a sandbox closing its store) may still write into it.
  const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  process.once('exit', remove);
  return () => {
    process.off('exit', remove);
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    delete process.env[RUN_TMPDIR_ENV];
    remove();
  };
}
