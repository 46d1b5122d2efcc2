// Journeys as monitoring of a deployment: the JSON files of several runs (`npm run journeys -- --json FILE`, kept
// by a scheduled CI job: docs/guides/real-deployment.md) as one Markdown page: each run's totals, each step's
// times and failures across the runs, and every failure with what did not hold. `npm run journeys:report`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../src/client/usage/json-text.js';
import type { FailedCheck, JourneyResults, StepResult } from '../../src/sandbox/journeys/results.js';
import { codeBlock, codeSpan, markdownText } from '../openapi/markdown.js';
import { resultsProblem } from './results-file.js';

export interface RunFile {
  /** The file's name, as the page names the run. */
  name: string;
  results: JourneyResults;
}

/** The runs in `paths` (JSON files, or folders of them), oldest first. */
export function readRuns(paths: string[]): RunFile[] {
  const files = paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith('.json'))
          .map((f) => join(path, f))
      : [path],
  );
  return files
    .map((file) => ({ name: file, results: readResults(file) }))
    .sort((a, b) => a.results.startedAt.localeCompare(b.results.startedAt));
}

/** The results in `file`, or an error naming it and what is wrong: no JSON, or a field the results do not have. */
function readResults(file: string): JourneyResults {
  const notResults = `${file} is not the JSON of npm run journeys -- --json FILE`;
  const results = parseJson(
    readFileSync(file, 'utf8'),
    (problem) => new Error(`${notResults}: ${problem}; give the file --json writes, not the --junit XML.`),
  );
  const problem = resultsProblem(results);
  if (problem) throw new Error(`${notResults}: ${problem}.`);
  return results as JourneyResults;
}

/** A table whose cells are Markdown already: values from a file in them escaped (markdownText). */
const table = (head: string[], rows: string[][]) =>
  [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

function runsTable(runs: RunFile[]): string {
  return table(
    ['Run', 'Started', 'Target', 'Passed', 'Failed', 'Time'],
    runs.map(({ results }, i) => {
      const failed = results.workflows.filter((w) => w.status === 'failed').length;
      const time = `${(results.ms / 1000).toFixed(1)} s`;
      return [
        String(i + 1),
        // An ISO timestamp and one of two words: checked as such when the file was read.
        results.startedAt,
        results.target,
        String(results.workflows.length - failed),
        String(failed),
        time,
      ];
    }),
  );
}

interface StepRow {
  workflow: string;
  step: string;
  /** Per run the step ran in: its time and status. */
  seen: { run: number; step: StepResult }[];
}

/** Every step of every run, by `file / workflow` and step, in the order they first appear. */
function stepRows(runs: RunFile[]): StepRow[] {
  const rows = new Map<string, StepRow>();
  runs.forEach(({ results }, run) => {
    for (const workflow of results.workflows)
      for (const step of workflow.steps) {
        const key = `${workflow.file}\u0000${workflow.workflowId}\u0000${step.step}`;
        const row = rows.get(key) ?? {
          workflow: `${markdownText(workflow.file)} / ${markdownText(workflow.workflowId)}`,
          step: markdownText(step.step),
          seen: [],
        };
        row.seen.push({ run: run + 1, step });
        rows.set(key, row);
      }
  });
  return [...rows.values()];
}

function stepsTable(runs: RunFile[]): string {
  return table(
    ['Workflow', 'Step', 'Ran', 'Failed', 'Sent again', 'Median ms', 'Max ms', 'Last ms'],
    stepRows(runs).map((row) => {
      const times = row.seen.map((s) => s.step.ms);
      const failed = row.seen.filter((s) => s.step.status === 'failed').map((s) => `run ${s.run}`);
      // A retry action's attempts: a delivery that came late, a status that took its time.
      const again = row.seen.filter((s) => s.step.attempts > 1).map((s) => `run ${s.run}: ${s.step.attempts} attempts`);
      return [
        row.workflow,
        row.step,
        `${row.seen.length} of ${runs.length}`,
        failed.length ? failed.join(', ') : '0',
        again.join(', '),
        String(median(times)),
        String(Math.max(...times)),
        String(times.at(-1)),
      ];
    }),
  );
}

/** A failed check that names no criterion: its message, a code frame (several lines) fenced. */
const checkText = (f: FailedCheck) =>
  `${markdownText(f.check)}:${/[\r\n]/.test(f.message) ? `\n\n${codeBlock(f.message, '  ')}` : ` ${markdownText(f.message)}`}`;

/** What did not hold in a failed step: its criteria, in code, and its other checks. */
const stepFailure = (s: StepResult) =>
  s.failed.map((f) => (f.condition ? `${codeSpan(f.condition)} does not hold` : checkText(f))).join('; ') || 'failed';

function failureLines(runs: RunFile[]): string[] {
  return runs.flatMap(({ results }, i) =>
    results.workflows
      .filter((w) => w.status === 'failed')
      .flatMap((w) => {
        const where = `run ${i + 1} (${results.startedAt}): ${markdownText(w.file)} / ${markdownText(w.workflowId)}`;
        const steps = w.steps.filter((s) => s.status === 'failed');
        if (!steps.length) return [`- ${where}: ${markdownText(w.error ?? 'failed')}`];
        return steps.map(
          (s) => `- ${where} / ${markdownText(s.step)}${s.httpStatus ? ` (${s.httpStatus})` : ''}: ${stepFailure(s)}`,
        );
      }),
  );
}

/** The page: the runs, the steps across them, the failures. */
export function monitorReport(runs: RunFile[]): string {
  if (!runs.length) return '# Journeys\n\nNo runs given.\n';
  const failures = failureLines(runs);
  return [
    `# Journeys across ${runs.length} run${runs.length === 1 ? '' : 's'}`,
    '',
    runsTable(runs),
    '',
    '## Steps',
    '',
    stepsTable(runs),
    '',
    '## Failures',
    '',
    ...(failures.length ? failures : ['None.']),
    '',
  ].join('\n');
}
