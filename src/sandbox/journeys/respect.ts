// The journeys' runs with `redocly respect`, which checks each answer against the descriptions: several files in
// one respect process, each group of journeys with a fresh sandbox tenant of its own, or a deployment's inputs.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { RedoclyCli } from './redocly.js';
import { completeResults, readRespectJson, type WorkflowResult } from './results.js';
import { freshRunId } from './run-id.js';
import type { Journey } from './runnable.js';

/** A file and the workflows of it to run. */
export interface RespectFile {
  file: string;
  workflows: string[];
  /** Whether a workflow of the file moves sandbox time (`advanceClock`), which every tenant of a sandbox shares. */
  movesTheClock: boolean;
}

/** The journeys of `all` that `only` keeps, grouped by file. */
function byFile(only: (j: Journey) => boolean, all: Journey[]): RespectFile[] {
  return [...new Set(all.map((j) => j.file.file))].flatMap((file) => {
    const ofFile = all.filter((j) => j.file.file === file);
    const kept = ofFile.filter(only);
    if (!kept.length) return [];
    return [
      {
        file,
        workflows: kept.map((j) => j.workflow.workflowId),
        movesTheClock: ofFile.some((j) => j.steps.some((s) => s.operationId === 'advanceClock')),
      },
    ];
  });
}

/** The inputs every journey takes: a tenant's credentials (a fresh sandbox tenant's or a deployment's). */
export interface TenantInputs {
  clientId: string;
  businessCredentials: unknown;
  v1Credentials: unknown;
  integrationRegister: string;
  /** New for each run: the names that must be unique are made from it (run-id.ts). */
  runId: string;
  /** Where the journeys' webhook endpoints point: the sandbox's own receiver, or the team's on a deployment. */
  receiverUrl?: string;
  /** The sandbox's address (for its failing receiver); absent against a deployment. */
  sandboxUrl?: string;
}

export interface RespectRun {
  file: string;
  /** The tenant the run's workflows used. */
  tenant?: TenantInputs;
  workflows: string[];
  ok: boolean;
  /** The respect process's time, shared by the files it ran together. */
  ms: number;
  /** How many files that respect process ran, this one included. */
  together: number;
  /** What respect printed for this file: its workflows' steps and its summary. */
  output: string;
  /** Its workflows' results, per step (from respect's JSON output). */
  results: WorkflowResult[];
}

/** The base address of each source description a run calls. */
export interface Servers {
  business: string;
  v1: string;
  sandbox?: string;
}

/** How the runs are made: with which Redocly CLI, and the signal that stops them. */
export interface HowToRun {
  cli: RedoclyCli;
  signal?: AbortSignal;
}

/** What one respect process did: its exit and everything it printed. */
interface RespectProcess {
  ok: boolean;
  ms: number;
  output: string;
}

function respectProcess(cli: RedoclyCli, args: string[], signal?: AbortSignal): Promise<RespectProcess> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli.script, ...args],
      { cwd: cli.cwd, env: cli.env, maxBuffer: 32 * 1024 * 1024, signal },
      (error, stdout, stderr) =>
        resolve({ ok: !error, ms: Math.round(performance.now() - started), output: `${stdout}${stderr}` }),
    );
  });
}

/** The end of the summary respect prints for the file `name` (after its `Time:` line), or -1. */
function summaryEnd(output: string, name: string): number {
  const summary = output.indexOf(`Summary for ${name}`);
  if (summary < 0) return -1;
  const time = /^\s*Time:.*$/m.exec(output.slice(summary));
  return time ? summary + time.index + time[0].length : -1;
}

/**
 * One process's output cut into each file's part (its workflows' steps, then its summary) and verdict: a file
 * passed when its summary counts every workflow passed, and the process succeeded or another file's summary
 * shows the failure that made it fail. A file with no summary (respect stopped early) did not pass.
 */
export function perFile(files: RespectFile[], run: RespectProcess): Omit<RespectRun, 'tenant' | 'results'>[] {
  const ends = files.map((f) => ({ f, end: summaryEnd(run.output, basename(f.file)) })).sort((a, b) => a.end - b.end);
  const parts = new Map<RespectFile, { output: string; passed: boolean }>();
  let from = 0;
  for (const { f, end } of ends) {
    if (end < 0) {
      parts.set(f, { output: run.output, passed: false });
      continue;
    }
    const output = run.output.slice(from, f === ends.at(-1)!.f ? undefined : end);
    parts.set(f, { output, passed: /Workflows: (\d+) passed, \1 total/.test(output) });
    from = end;
  }
  const explained = [...parts.values()].some((part) => !part.passed);
  return files.map((f) => {
    const { output, passed } = parts.get(f)!;
    return {
      file: basename(f.file),
      workflows: f.workflows,
      ms: run.ms,
      together: files.length,
      output,
      ok: passed && (run.ok || explained),
    };
  });
}

/**
 * Runs `files` in one `redocly respect` process (answers checked against the descriptions), with one tenant's
 * inputs; results per file. One process for several files loads and compiles the descriptions once.
 */
export async function runRespect(
  files: RespectFile[],
  servers: Servers,
  inputs: TenantInputs,
  how: HowToRun,
): Promise<RespectRun[]> {
  const server = Object.entries(servers)
    .filter(([, url]) => url)
    .map(([name, url]) => `${name}=${url}`)
    .join(',');
  // Named always: a file also holds building blocks, which take other inputs. Respect applies the list to every
  // file and warns of the names a file lacks.
  const selected = files.flatMap((f) => f.workflows.flatMap((w) => ['--workflow', w]));
  const json = join(tmpdir(), `respect-${randomUUID()}.json`);
  const args = ['respect', ...files.map((f) => f.file), ...selected, '-S', server, '--input', JSON.stringify(inputs)];
  try {
    const startedAt = new Date();
    const done = await respectProcess(how.cli, [...args, '--json-output', json], how.signal);
    const reported = readRespectJson(json, startedAt);
    return perFile(files, done).map((run) => ({
      ...run,
      tenant: inputs,
      results: completeResults(run.file, run.workflows, reported, 'respect reported no result for it'),
    }));
  } finally {
    rmSync(json, { force: true });
  }
}

/** A fresh tenant of the sandbox at `sandboxUrl`, as the journeys' inputs. */
export async function sandboxTenant(sandboxUrl: string, name: string): Promise<TenantInputs> {
  const answer = await fetch(`${sandboxUrl}/sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (answer.status !== 201) throw new Error(`createTenant answered ${answer.status}: ${await answer.text()}`);
  const { clientId, businessCredentials, v1Credentials, integrationRegister } = (await answer.json()) as Omit<
    TenantInputs,
    'runId'
  >;
  const receiverUrl = `${sandboxUrl}/sandbox/receivers/accept`;
  const runId = freshRunId();
  return { clientId, businessCredentials, v1Credentials, integrationRegister, runId, receiverUrl, sandboxUrl };
}

/** `inputs` as a deployment's run gives them: without the sandbox's address. */
function asDeployment({ sandboxUrl: _, ...inputs }: TenantInputs): TenantInputs {
  return inputs;
}

/**
 * Every journey against the sandbox at `sandboxUrl`, each group in one respect process with a fresh tenant of its
 * own. First, together, every journey but the sandbox journeys of the files that move sandbox time: with the
 * tenant's inputs as a deployment's run gives them (no `sandboxUrl`), so the service-only journeys run once, as
 * they would against a deployment, beside the sandbox journeys that leave time alone. Then the sandbox journeys of
 * each file that moves sandbox time (`advanceClock`, shared by every tenant), one file at a time, so no clock move
 * lands inside another file's timing (a retry schedule, a delayed trigger value) and its deliveries are its own.
 * `all` is the journeys as read; `only` keeps those to run.
 */
export async function runJourneysOnSandbox(
  sandboxUrl: string,
  all: Journey[],
  how: HowToRun & { only?: (j: Journey) => boolean },
): Promise<RespectRun[]> {
  const only = how.only ?? (() => true);
  const servers = { business: sandboxUrl, v1: sandboxUrl, sandbox: sandboxUrl };
  const timed = new Set(byFile(() => true, all).flatMap((f) => (f.movesTheClock ? [f.file] : [])));
  const apart = (j: Journey) => j.kind === 'sandbox' && timed.has(j.file.file);
  const run = async (group: RespectFile[], name: string, inputs = (t: TenantInputs) => t): Promise<RespectRun[]> =>
    group.length ? runRespect(group, servers, inputs(await sandboxTenant(sandboxUrl, name)), how) : [];
  const runs = await run(
    byFile((j) => only(j) && !apart(j), all),
    'Journeys',
    asDeployment,
  );
  for (const file of byFile((j) => only(j) && apart(j), all))
    runs.push(...(await run([file], `Journeys of ${basename(file.file)}`)));
  return runs;
}

/** The journeys that use only the service's own API, unchanged, against a deployment (or anything that serves it). */
export function runServiceJourneys(
  servers: Servers,
  inputs: TenantInputs,
  all: Journey[],
  how: HowToRun & { only?: (j: Journey) => boolean },
): Promise<RespectRun[]> {
  const only = how.only ?? (() => true);
  return runRespect(
    byFile((j) => j.kind === 'service' && only(j), all),
    servers,
    inputs,
    how,
  );
}
