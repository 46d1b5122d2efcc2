// A journey run's results as CI and a schedule read them: per workflow and per step, its status, its time and
// the checks that failed (a success criterion by its condition, or respect's own: status code, content type,
// schema). Read from the JSON file `redocly respect --json-output` writes, of which only these fields are kept:
// never a request or an answer, which carry credentials and tokens.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

type Status = 'passed' | 'failed';

export interface FailedCheck {
  /** respect's name of the check: `success criteria check`, `status code check`, `schema check`, ... */
  check: string;
  /** The criterion that did not hold, as the workflow writes it. */
  condition?: string;
  message: string;
}

export interface StepResult {
  /** The step's ID, after those of the steps that ran its workflow (`register / v1Token`). */
  step: string;
  /** The workflow the step belongs to (a called workflow's, for its steps). */
  workflowId: string;
  /** The last attempt's: a step its `retry` action ran again passed when its last attempt did. */
  status: Status;
  /** All its attempts' time. */
  ms: number;
  /** How many times it was sent (more than 1 when a `retry` action ran it again). */
  attempts: number;
  httpStatus?: number;
  failed: FailedCheck[];
}

export interface WorkflowResult {
  file: string;
  workflowId: string;
  /** When it started: when the workflows respect ran before it in the same process ended. */
  startedAt?: string;
  status: Status;
  ms: number;
  steps: StepResult[];
  /** Why the workflow has no step results: respect stopped before it, or printed none. */
  error?: string;
}

/** One `npm run journeys`: what `--json FILE` writes, and what `npm run journeys:report` reads. */
export interface JourneyResults {
  target: 'sandbox' | 'deployment';
  startedAt: string;
  ms: number;
  ok: boolean;
  workflows: WorkflowResult[];
}

type Node = Record<string, unknown>;
const nodes = (value: unknown): Node[] =>
  Array.isArray(value) ? value.filter((v): v is Node => typeof v === 'object' && v !== null) : [];
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : 0);
/**
 * A check's message as the results keep it: without the terminal's escape codes respect colours it with, and cut
 * when long (a schema check's): the run's own output has it whole.
 */
function messageOf(value: unknown): string {
  const text = stripVTControlCharacters(String(value ?? ''));
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}

/** The checks of a step that failed and count (respect's rule: a check whose severity is `warn` or `off` does not). */
function failedChecks(step: Node): FailedCheck[] {
  return nodes(step.checks)
    .filter((c) => c.passed === false && c.severity !== 'warn' && c.severity !== 'off')
    .map((c) => ({
      check: String(c.name ?? 'check'),
      ...(typeof c.condition === 'string' ? { condition: c.condition } : {}),
      message: messageOf(c.message),
    }));
}

/** One result per step: respect lists each attempt of a retried step; the last one says how it ended. */
function byStep(attempts: StepResult[]): StepResult[] {
  const steps: StepResult[] = [];
  for (const attempt of attempts) {
    const previous = steps.at(-1);
    if (previous?.step === attempt.step)
      steps[steps.length - 1] = { ...attempt, ms: previous.ms + attempt.ms, attempts: previous.attempts + 1 };
    else steps.push(attempt);
  }
  return steps;
}

/** The steps respect ran, a called workflow's written in place under the step that called it. */
function stepsOf(executed: unknown, path: string[]): StepResult[] {
  return nodes(executed).flatMap((entry): StepResult[] => {
    const at = [...path, String(entry.stepId ?? '')];
    if (entry.type === 'workflow') return stepsOf(entry.executedSteps, at);
    const failed = failedChecks(entry);
    const response = (entry.response ?? {}) as Node;
    return [
      {
        step: at.join(' / '),
        workflowId: String(entry.workflowId ?? ''),
        status: failed.length || entry.status === 'error' ? 'failed' : 'passed',
        ms: number(entry.totalTimeMs),
        attempts: 1,
        ...(typeof response.statusCode === 'number' ? { httpStatus: response.statusCode } : {}),
        failed,
      },
    ];
  });
}

/**
 * The workflows of a respect JSON output, by file name (`first-call.arazzo.yaml`). Respect runs them one after
 * the other from `startedAt`, its process's start: each started when those before it ended.
 */
export function fromRespectJson(json: unknown, startedAt = new Date()): WorkflowResult[] {
  const files = ((json ?? {}) as Node).files as Record<string, Node> | undefined;
  let at = startedAt.getTime();
  return Object.entries(files ?? {}).flatMap(([path, file]) =>
    nodes(file.executedWorkflows).map((workflow) => {
      const steps = byStep(stepsOf(workflow.executedSteps, []));
      const failed = workflow.status !== 'success' || steps.some((s) => s.status === 'failed');
      const started = new Date(at).toISOString();
      at += number(workflow.totalTimeMs);
      return {
        file: basename(path),
        workflowId: String(workflow.workflowId ?? ''),
        startedAt: started,
        status: failed ? 'failed' : 'passed',
        ms: number(workflow.totalTimeMs),
        steps,
        ...(workflow.globalTimeoutError === true ? { error: 'respect stopped at its execution timeout' } : {}),
      } satisfies WorkflowResult;
    }),
  );
}

/**
 * The results in a respect JSON output file, of a process started at `startedAt`; none when respect wrote none
 * (it stopped before its end).
 */
export function readRespectJson(path: string, startedAt: Date): WorkflowResult[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return fromRespectJson(JSON.parse(text), startedAt);
}

/**
 * The results of `workflows` of `file`, those respect reported and, for each it did not (it stopped early, or
 * never started them), a failed one that says so.
 */
export function completeResults(
  file: string,
  workflows: string[],
  reported: WorkflowResult[],
  why: string,
): WorkflowResult[] {
  return workflows.map(
    (workflowId) =>
      reported.find((r) => r.file === file && r.workflowId === workflowId) ?? {
        file,
        workflowId,
        status: 'failed',
        ms: 0,
        steps: [],
        error: why,
      },
  );
}
