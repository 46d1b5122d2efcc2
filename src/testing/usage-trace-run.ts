// Test support: an example consumer's tests run with the trace on (vitest.consumers.config.ts, in a process of
// their own), the reads they traced, and which of them the consumer's static usage file does not cover.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isWithin } from '../client/usage/pointers.js';
import type { FieldUse, UsageFile } from '../client/usage/usage-file.js';
import { repoRoot } from './repo.js';
import type { TracedRead } from './usage-trace.js';

/**
 * Runs the tests of the consumer `name` (contract-tests/consumers/<name>/test/) with the trace on and returns the
 * reads of its own code, each once. Uses the build that is there (its parent run made it). Fails with the tests'
 * output if they fail; `signal` stops the run (and the sandboxes its tests started) when the caller gives up.
 */
export async function traceConsumer(name: string, signal?: AbortSignal): Promise<TracedRead[]> {
  const dir = mkdtempSync(join(tmpdir(), `usage-trace-${name}-`));
  try {
    const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--config', 'vitest.consumers.config.ts', `contract-tests/consumers/${name}/test`];
    await promisify(execFile)(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, USAGE_TRACE_DIR: dir, CONTRACT_SKIP_BUNDLE: '1' },
      maxBuffer: 32 * 2 ** 20,
      // Aborted by the caller's teardown: the consumer's test run (and the sandboxes it started) ends with it.
      ...(signal ? { signal } : {}),
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`The tests of ${name} failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    const reads = new Map<string, TracedRead>();
    for (const file of readdirSync(dir))
      for (const read of JSON.parse(readFileSync(join(dir, file), 'utf8')) as TracedRead[])
        reads.set(describeRead(read), read);
    return [...reads.values()].sort((a, b) => (describeRead(a) < describeRead(b) ? -1 : 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `consumer operation status pointer site`: one traced read on a line. */
export const describeRead = (read: TracedRead) =>
  [read.consumer, read.operation, read.status || 'event', read.pointer, read.site].join('  ');

/** The fields of the usage file where a read of `read`'s operation or event may be listed. */
function fieldsFor(read: TracedRead, usage: UsageFile): FieldUse[] {
  const same = <T extends { family: string }>(uses: T[]) => uses.filter((u) => u.family === read.family);
  const own =
    read.kind === 'event'
      ? same(usage.events).find((e) => e.event === read.operation)?.payloadFields
      : same(usage.operations).find((o) => o.operationId === read.operation)?.responseFields;
  return [...(own ?? []), ...same(usage.otherFields)];
}

/** Whether the usage file lists the read's field, or marks it or a value the read went through `whole`. */
export function covers(usage: UsageFile, read: TracedRead): boolean {
  const through = [...read.trail, read.pointer];
  return fieldsFor(read, usage).some(
    (f) => f.pointer === read.pointer || (f.whole === true && through.some((p) => isWithin(p, f.pointer))),
  );
}

/** The traced reads the usage file does not cover. */
export const uncoveredReads = (reads: TracedRead[], usage: UsageFile) => reads.filter((read) => !covers(usage, read));
