// The journeys (openapi/workflows/*.arazzo.yaml) as data, and their runs with `redocly respect`: which workflows a
// runner starts (those that take only a tenant's inputs), which of them use the service's own API alone (and so
// run against a deployment), and one respect process per file, files at once.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './apis.js';
import { redoclyBin, redoclyEnv } from './redocly.js';

export const workflowsDir = join(repoRoot, 'openapi', 'workflows');

/** The inputs every journey takes: a tenant's credentials (a fresh sandbox tenant's or a deployment's). */
export interface TenantInputs {
  clientId: string;
  businessCredentials: unknown;
  v1Credentials: unknown;
  integrationRegister: string;
  /** Where the journeys' webhook endpoints point: the sandbox's own receiver, or the team's on a deployment. */
  receiverUrl?: string;
  /** The sandbox's address (for its failing receiver); absent against a deployment. */
  sandboxUrl?: string;
}

export interface ArazzoStep {
  stepId: string;
  description?: string;
  operationId?: string;
  workflowId?: string;
  parameters?: { name: string; in?: string; value: unknown }[];
  requestBody?: { payload?: unknown };
  successCriteria?: { condition: string }[];
  outputs?: Record<string, string>;
}
export interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: { $ref?: string; properties?: Record<string, unknown> };
  steps: ArazzoStep[];
  outputs?: Record<string, string>;
}
export interface ArazzoFile {
  file: string;
  name: string;
  doc: {
    info: { title: string; summary?: string; description?: string };
    sourceDescriptions: { name: string; url: string; type: string }[];
    workflows: ArazzoWorkflow[];
    components?: { inputs?: Record<string, { properties?: Record<string, unknown> }> };
  };
}

export function readJourneyFiles(dir = workflowsDir): ArazzoFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .sort()
    .map((f) => ({ file: join(dir, f), name: f, doc: parse(readFileSync(join(dir, f), 'utf8')) }));
}

/** The source description (`v1`, `sandbox`, an Arazzo file's name) and the name a step's reference points at. */
export function stepTarget(step: ArazzoStep): { source: string | null; name: string; kind: 'operation' | 'workflow' } {
  const ref = step.operationId ?? step.workflowId ?? '';
  const kind = step.operationId ? 'operation' : 'workflow';
  const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(ref);
  return match ? { source: match[1]!, name: match[2]!, kind } : { source: null, name: ref, kind };
}

export interface FlatStep {
  file: string;
  workflowId: string;
  step: ArazzoStep;
  /** The source description the operation belongs to: `v1`, `business` or `sandbox`. */
  source: string;
  operationId: string;
  /** The workflow's inputs as far as they are literal values (given by the calling step, or defaults). */
  inputs: Record<string, unknown>;
}

/** The literal inputs a child workflow gets: the calling step's literal parameters, then the inputs' defaults. */
function childInputs(
  step: ArazzoStep,
  child: ArazzoWorkflow,
  inputs: Record<string, unknown>,
): Record<string, unknown> {
  const properties = (child.inputs?.properties ?? {}) as Record<string, { default?: unknown }>;
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties))
    if (schema.default !== undefined) values[name] = schema.default;
  for (const p of step.parameters ?? []) {
    const resolved = typeof p.value === 'string' && p.value.startsWith('$inputs.') ? inputs[p.value.slice(8)] : p.value;
    if (typeof resolved !== 'string' || !resolved.startsWith('$')) values[p.name] = resolved;
  }
  return values;
}

/** Every operation step a workflow runs, its child workflows' (in this file or another) included, in order. */
export function flattenSteps(
  files: ArazzoFile[],
  file: ArazzoFile,
  workflow: ArazzoWorkflow,
  inputs: Record<string, unknown> = {},
): FlatStep[] {
  return workflow.steps.flatMap((step): FlatStep[] => {
    const target = stepTarget(step);
    if (target.kind === 'operation') {
      if (!target.source) throw new Error(`${file.name} ${workflow.workflowId}.${step.stepId}: name the source`);
      const type = file.doc.sourceDescriptions.find((s) => s.name === target.source)?.type;
      if (type !== 'openapi') throw new Error(`${file.name}: ${target.source} is not an OpenAPI source`);
      const where = { file: file.name, workflowId: workflow.workflowId };
      return [{ ...where, step, source: target.source, operationId: target.name, inputs }];
    }
    const childFile = target.source
      ? files.find((f) => f.name === file.doc.sourceDescriptions.find((s) => s.name === target.source)?.url)
      : file;
    const child = childFile?.doc.workflows.find((w) => w.workflowId === target.name);
    if (!childFile || !child) throw new Error(`${file.name} ${workflow.workflowId}.${step.stepId}: no ${target.name}`);
    return flattenSteps(files, childFile, child, childInputs(step, child, inputs));
  });
}

export interface Journey {
  file: ArazzoFile;
  workflow: ArazzoWorkflow;
  /** `service`: every step is a Business or v1 operation, so it runs unchanged against a deployment. */
  kind: 'service' | 'sandbox';
  steps: FlatStep[];
}

/** The reference a journey's `inputs` is: the tenant's inputs, which a runner gives. */
export const TENANT_INPUTS_REF = '#/components/inputs/tenant';

/**
 * The workflows a runner starts: those whose inputs are the tenant's (`$ref` to TENANT_INPUTS_REF). The others
 * are building blocks that journeys call with their own values.
 */
export function journeys(files = readJourneyFiles()): Journey[] {
  return files.flatMap((file) =>
    file.doc.workflows
      .filter((workflow) => workflow.inputs?.$ref === TENANT_INPUTS_REF)
      .map((workflow) => {
        const steps = flattenSteps(files, file, workflow);
        const kind = steps.every((s) => s.source === 'v1' || s.source === 'business') ? 'service' : 'sandbox';
        return { file, workflow, kind, steps } as Journey;
      }),
  );
}

export interface RespectRun {
  file: string;
  /** The tenant the run's workflows used. */
  tenant?: TenantInputs;
  workflows: string[];
  ok: boolean;
  ms: number;
  output: string;
}

/** The base address of each source description a run calls. */
export interface Servers {
  business: string;
  v1: string;
  sandbox?: string;
}

/** Runs the workflows of one file with `redocly respect` (answers checked against the descriptions). */
export function runRespect(
  file: string,
  workflows: string[],
  servers: Servers,
  inputs: TenantInputs,
  signal?: AbortSignal,
): Promise<RespectRun> {
  const server = Object.entries(servers)
    .filter(([, url]) => url)
    .map(([name, url]) => `${name}=${url}`)
    .join(',');
  const args = ['respect', file, ...workflows.flatMap((w) => ['--workflow', w]), '-S', server];
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      redoclyBin,
      [...args, '--input', JSON.stringify(inputs)],
      { cwd: repoRoot, env: redoclyEnv, maxBuffer: 32 * 1024 * 1024, signal },
      (error, stdout, stderr) =>
        resolve({
          file: basename(file),
          workflows,
          ok: !error,
          ms: Math.round(performance.now() - started),
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

/** Runs `tasks` with at most `limit` at once, keeping their order in the result. */
export async function atMost<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** A fresh tenant of the sandbox at `sandboxUrl`, as the journeys' inputs. */
export async function sandboxTenant(sandboxUrl: string, name: string): Promise<TenantInputs> {
  const answer = await fetch(`${sandboxUrl}/sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (answer.status !== 201) throw new Error(`createTenant answered ${answer.status}: ${await answer.text()}`);
  const { clientId, businessCredentials, v1Credentials, integrationRegister } = (await answer.json()) as TenantInputs;
  const receiverUrl = `${sandboxUrl}/sandbox/receivers/accept`;
  return { clientId, businessCredentials, v1Credentials, integrationRegister, receiverUrl, sandboxUrl };
}

/** Groups journeys by file: one respect process runs a file's workflows. */
export function byFile(list: Journey[]): Map<string, Journey[]> {
  const files = new Map<string, Journey[]>();
  for (const j of list) files.set(j.file.file, [...(files.get(j.file.file) ?? []), j]);
  return files;
}

/** Whether a file's journeys move sandbox time (`advanceClock`), which every tenant of the sandbox shares. */
const movesTheClock = (list: Journey[]) => list.some((j) => j.steps.some((s) => s.operationId === 'advanceClock'));

/**
 * Every journey against the sandbox at `sandboxUrl`: a fresh tenant per file, `concurrency` files at once; the
 * files that move sandbox time run after those, one at a time, so no file's clock move lands inside another's
 * timing (a retry schedule, a delayed trigger value).
 */
export async function runJourneysOnSandbox(
  sandboxUrl: string,
  options: { concurrency?: number; only?: (j: Journey) => boolean; signal?: AbortSignal } = {},
): Promise<RespectRun[]> {
  const servers = { business: sandboxUrl, v1: sandboxUrl, sandbox: sandboxUrl };
  const groups = [...byFile(journeys().filter(options.only ?? (() => true)))];
  const run =
    ([file, list]: [string, Journey[]]) =>
    async () => {
      const tenant = await sandboxTenant(sandboxUrl, `Journeys of ${basename(file)}`);
      const ids = list.map((j) => j.workflow.workflowId);
      return { ...(await runRespect(file, ids, servers, tenant, options.signal)), tenant };
    };
  const together = await atMost(options.concurrency ?? 3, groups.filter(([, list]) => !movesTheClock(list)).map(run));
  const alone = await atMost(1, groups.filter(([, list]) => movesTheClock(list)).map(run));
  return [...together, ...alone];
}

/** The journeys that use only the service's own API, unchanged, against a deployment (or anything that serves it). */
export async function runServiceJourneys(
  servers: Servers,
  inputs: TenantInputs,
  only: (j: Journey) => boolean = () => true,
): Promise<RespectRun[]> {
  const service = journeys().filter((j) => j.kind === 'service' && only(j));
  const runs: RespectRun[] = [];
  for (const [file, list] of byFile(service))
    runs.push(
      await runRespect(
        file,
        list.map((j) => j.workflow.workflowId),
        servers,
        inputs,
      ),
    );
  return runs;
}
