// The journeys: the workflows a runner starts (those that take only a tenant's inputs), each with its operation
// steps in order, the workflows it calls flattened in, and whether it uses the service's own API alone (and so runs
// against a deployment). Read from the Arazzo model (./arazzo.ts).
import { type ArazzoFile, type ArazzoStep, type ArazzoWorkflow, calledWorkflow, sourceReference } from './arazzo.js';

/** The source description (`v1`, `sandbox`, an Arazzo file's name) and the name a step's reference points at. */
function stepTarget(step: ArazzoStep): { source: string | null; name: string; kind: 'operation' | 'workflow' } {
  const ref = step.operationId ?? step.workflowId ?? '';
  const kind = step.operationId ? 'operation' : 'workflow';
  const qualified = sourceReference(ref);
  return qualified ? { ...qualified, kind } : { source: null, name: ref, kind };
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
function flattenSteps(
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
    const child = calledWorkflow(files, file, step.workflowId ?? '');
    if (!child) throw new Error(`${file.name} ${workflow.workflowId}.${step.stepId}: no ${target.name}`);
    return flattenSteps(files, child.file, child.workflow, childInputs(step, child.workflow, inputs));
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
const TENANT_INPUTS_REF = '#/components/inputs/tenant';

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
