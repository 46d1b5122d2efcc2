// The journeys (Arazzo 1.0 workflows, `*.arazzo.yaml`) as data: the files of a folder, each workflow's steps with
// the workflows it calls flattened in, which workflows a runner starts (those that take only a tenant's inputs),
// and which of them use the service's own API alone (and so run against a deployment).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

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

export function readJourneyFiles(dir: string): ArazzoFile[] {
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
export function journeys(files: ArazzoFile[]): Journey[] {
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

/** A file and the workflows of it to run. */
export interface RespectFile {
  file: string;
  workflows: string[];
  /** Whether a workflow of the file moves sandbox time (`advanceClock`), which every tenant of a sandbox shares. */
  movesTheClock: boolean;
}

/** The journeys of `all` that `only` keeps, grouped by file. */
export function byFile(only: (j: Journey) => boolean, all: Journey[]): RespectFile[] {
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
