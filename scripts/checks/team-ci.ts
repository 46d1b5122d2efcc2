// The job files of the guide "Your team's CI" (docs/guides/team-ci.md) as a CI runs them: each file's commands in
// order, with the variables the job sets, and the paths its artifact and report steps keep. The steps a CI runs
// itself (checkout, setup-node, uploads, reports) are not commands: their paths are what the commands must make.
import { spawn } from 'node:child_process';
import { parse } from 'yaml';
import { markedBlock } from '../site/guides.js';

export interface JobCommand {
  /** Which step or script line of the file it is, as an error names it. */
  step: string;
  command: string;
}

export interface Job {
  /** The job file, as the guide names it. */
  file: string;
  /** The variables the job sets; a value that only the CI fills in (`${{ ... }}`) is left out. */
  env: Record<string, string>;
  commands: JobCommand[];
  /** The paths the CI's own steps keep as artifacts or read as a test report, sorted. */
  kept: string[];
}

/** The blocks of the guide that hold the job files. */
export const JOB_BLOCKS = { github: 'team-ci-github', gitlab: 'team-ci-gitlab' } as const;

type Map = Record<string, unknown>;
const isMap = (value: unknown): value is Map => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
/** A job's variables as strings, those the CI fills in left out. */
const variables = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(isMap(value) ? value : {})
      .map(([key, v]) => [key, String(v)] as const)
      .filter(([, v]) => !v.includes('${{')),
  );

/** The one job of a GitHub Actions workflow: its `run` steps, and what its `uses` steps upload or report. */
export function githubJob(text: string, file = 'GitHub Actions'): Job {
  const workflow = parse(text) as Map;
  const jobs = Object.values(isMap(workflow.jobs) ? workflow.jobs : {});
  if (jobs.length !== 1 || !isMap(jobs[0])) throw new Error(`${file}: expected one job`);
  const job = jobs[0];
  const steps = (Array.isArray(job.steps) ? job.steps : []) as Map[];
  const commands = steps.flatMap((step, i) =>
    typeof step.run === 'string'
      ? [{ step: `step ${i + 1}${step.name ? ` (${String(step.name)})` : ''}`, command: step.run.trim() }]
      : [],
  );
  const kept = steps.flatMap((step) => {
    const uses = String(step.uses ?? '');
    const inputs = isMap(step.with) ? step.with : {};
    if (uses.startsWith('actions/upload-artifact@')) return String(inputs.path ?? '').split('\n');
    if (/junit/i.test(uses)) return String(inputs.report_paths ?? '').split(/[\n,]/);
    return [];
  });
  return { file, env: variables(job.env), commands, kept: clean(kept) };
}

/** The one job of a `.gitlab-ci.yml`: its `before_script`, `script` and `after_script`, and its artifacts. */
export function gitlabJob(text: string, file = 'GitLab CI'): Job {
  const doc = parse(text) as Map;
  const jobs = Object.entries(doc).filter(
    ([name, value]) => !name.startsWith('.') && isMap(value) && 'script' in value,
  );
  if (jobs.length !== 1) throw new Error(`${file}: expected one job`);
  const [, job] = jobs[0] as [string, Map];
  const commands = (['before_script', 'script', 'after_script'] as const).flatMap((key) =>
    strings(job[key]).map((command, i) => ({ step: `${key} line ${i + 1}`, command })),
  );
  const artifacts = isMap(job.artifacts) ? job.artifacts : {};
  const reports = isMap(artifacts.reports) ? artifacts.reports : {};
  return {
    file,
    env: variables(job.variables),
    commands,
    kept: clean([...strings(artifacts.paths), ...strings(reports.junit)]),
  };
}

const clean = (paths: string[]) => [...new Set(paths.map((p) => p.trim()).filter(Boolean))].sort();

/** Both job files of the guide. */
export function guideJobs(): { github: Job; gitlab: Job } {
  return {
    github: githubJob(markedBlock(JOB_BLOCKS.github, 'yaml').code),
    gitlab: gitlabJob(markedBlock(JOB_BLOCKS.gitlab, 'yaml').code),
  };
}

/** `$NAME` and `${NAME}` in a variable's value, from `env`, as GitLab expands a job's variables. */
const expand = (value: string, env: NodeJS.ProcessEnv, file: string) =>
  value.replace(/\$\{?(\w+)\}?/g, (_, name: string) => {
    // GitLab would expand an unknown name to nothing: a path made from it would point somewhere else.
    if (env[name] === undefined) throw new Error(`${file}: the job's variables use $${name}, which is not set`);
    return env[name];
  });

/** Runs one command with `sh -c` in `cwd`; resolves with its exit code and everything it printed. */
function shell(command: string, cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** A long output's start, which often says what went wrong, and its end, which says where it stopped. */
const shortened = (output: string) =>
  output.length <= 6000 ? output : `${output.slice(0, 3000)}\n[...]\n${output.slice(-3000)}`;

export interface RunOptions {
  /** The environment the CI gives every job (the job's own variables are added to it). */
  env: NodeJS.ProcessEnv;
  /** Commands already run in `cwd` by another file's job, left out here. */
  skip?: ReadonlySet<string>;
  signal?: AbortSignal;
  /** Told of each command as it starts, and of how long it took. */
  onCommand?: (command: JobCommand, ms: number) => void;
}

/**
 * Runs the job's commands in order in `cwd`, each with `sh -c`, as its CI would; the first that exits other than 0
 * throws, naming the file, the step and the command, with what it printed. Resolves with the commands it ran.
 */
export async function runJob(job: Job, cwd: string, options: RunOptions): Promise<JobCommand[]> {
  const env = { ...options.env };
  for (const [name, value] of Object.entries(job.env)) env[name] = expand(value, env, job.file);
  const ran: JobCommand[] = [];
  for (const command of job.commands) {
    if (options.skip?.has(command.command)) continue;
    const started = performance.now();
    const { code, output } = await shell(command.command, cwd, env, options.signal);
    options.onCommand?.(command, performance.now() - started);
    if (code !== 0)
      throw new Error(
        `${job.file}, ${command.step}: \`${command.command}\` exited with ${String(code)}:\n${shortened(output)}`,
      );
    ran.push(command);
  }
  return ran;
}
