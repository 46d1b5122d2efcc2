// What `npm run journeys` does after its runs: the results of the whole run, a line per file with each
// workflow's own time, one total time, and the files `--json` and `--junit` ask for. Its exit statuses
// (docs/guides/contributing.md): 0 every journey passed, 1 a journey failed, 2 the command was used wrongly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { junitXml } from './junit.js';
import type { JourneyResults, WorkflowResult } from './results.js';

export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** A wrong use of the command (an unknown option or workflow, a setting a target needs): its message alone. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The workflows asked for with `--workflow` that are not among `known`, as a UsageError naming the known ones. */
export function checkWorkflows(asked: string[] | undefined, known: string[]): void {
  const unknown = (asked ?? []).filter((id) => !known.includes(id));
  if (unknown.length)
    throw new UsageError(
      `Unknown --workflow ${unknown.join(', ')}. The journeys this target runs: ${[...known].sort().join(', ')}.`,
    );
}

/** The run's results from each file's, with the run's start and its whole time. */
export function journeyResults(
  runs: { results: WorkflowResult[] }[],
  target: JourneyResults['target'],
  startedAt: Date,
  ms: number,
): JourneyResults {
  const workflows = runs.flatMap((r) => r.results);
  const ok = workflows.length > 0 && workflows.every((w) => w.status === 'passed');
  return { target, startedAt: startedAt.toISOString(), ms: Math.round(ms), ok, workflows };
}

const secondsText = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A line per file (its workflows, each with its own time), then the run's totals and its one total time. */
export function summaryLines(results: JourneyResults): string[] {
  const files = [...new Set(results.workflows.map((w) => w.file))];
  const lines = files.map((file) => {
    const own = results.workflows.filter((w) => w.file === file);
    const passed = own.every((w) => w.status === 'passed');
    const each = own.map((w) => `${w.workflowId}${w.status === 'passed' ? '' : ' FAILED'} ${secondsText(w.ms)}`);
    return `${passed ? 'passed' : 'FAILED'}  ${file} (${each.join(', ')})`;
  });
  const failed = results.workflows.filter((w) => w.status === 'failed').length;
  const total = results.workflows.length;
  lines.push(
    `${total} journeys in ${files.length} files: ${total - failed} passed, ${failed} failed; ${secondsText(results.ms)} in all`,
  );
  return lines;
}

/** Writes the files asked for: the results as JSON, and as JUnit XML. */
export function writeResults(results: JourneyResults, to: { json?: string; junit?: string }): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  if (to.json) write(to.json, `${JSON.stringify(results, null, 2)}\n`);
  if (to.junit) write(to.junit, junitXml(results));
}
