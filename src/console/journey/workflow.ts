// An Arazzo 1.0 document as the site and the console read it: its workflows, each step's operation and the API
// family that holds it (a source description names a family's description), and the calls a workflow makes in
// order, sub-workflows included, which the journey's page, its diagram and its sample show.

export interface ArazzoParameter {
  name: string;
  /** `path`, `query`, `header`, `cookie`; absent for the inputs of a sub-workflow. */
  in?: string;
  value: unknown;
}

export interface Criterion {
  condition: string;
  context?: string;
  /** `simple` (the default) or `regex`; the console names any other as not evaluated. */
  type?: string | { type: string; version?: string };
}

export interface FlowAction {
  name?: string;
  type: 'end' | 'goto' | 'retry';
  stepId?: string;
  workflowId?: string;
  retryAfter?: number;
  retryLimit?: number;
  criteria?: Criterion[];
}

/** Redocly's `x-security` extension: the token a step sends for a security scheme of its operation. */
export interface StepSecurity {
  schemeName: string;
  values: Record<string, unknown>;
}

export interface ArazzoStep {
  stepId: string;
  description?: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  parameters?: ArazzoParameter[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: Criterion[];
  onSuccess?: FlowAction[];
  onFailure?: FlowAction[];
  outputs?: Record<string, string>;
  'x-security'?: StepSecurity[];
}

export interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: { type?: string; required?: string[]; properties?: Record<string, Record<string, unknown>> };
  steps: ArazzoStep[];
  outputs?: Record<string, string>;
}

export interface ArazzoDocument {
  arazzo: string;
  info: { title: string; summary?: string; description?: string; version: string };
  sourceDescriptions: { name: string; url: string; type?: string }[];
  workflows: ArazzoWorkflow[];
}

/** A step's operation: the API family whose description holds it, and its operationId there. */
export interface OperationRef {
  family: string;
  operationId: string;
}

/** Which family each source description names (`v1` to `v1`), and each family's operationIds. */
export interface Sources {
  families: Record<string, string>;
  operations: Record<string, string[]>;
}

/**
 * The operation a step calls (`$sourceDescriptions.v1.createPayout`, or a bare operationId found in one family);
 * the error says what is wrong without naming the step, which the caller does.
 */
export function operationOf(step: ArazzoStep, sources: Sources): OperationRef {
  const id = step.operationId;
  if (!id) throw new Error('it calls no operation (operationPath is not supported here).');
  const qualified = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(id);
  if (qualified) {
    const family = sources.families[qualified[1]!];
    if (!family) throw new Error(`it names the source description "${qualified[1]}", which is not one of ours.`);
    if (!sources.operations[family]?.includes(qualified[2]!))
      throw new Error(`${family} has no operation ${qualified[2]}.`);
    return { family, operationId: qualified[2]! };
  }
  const holders = Object.entries(sources.operations).filter(([, ids]) => ids.includes(id));
  if (holders.length !== 1)
    throw new Error(
      `${id} is in ${holders.length ? holders.map(([f]) => f).join(' and ') : 'no description'}; name its source description.`,
    );
  return { family: holders[0]![0], operationId: id };
}

/** The workflow a step runs, if it runs one (a workflowId of the same document). */
export function subWorkflowOf(step: ArazzoStep, document: ArazzoDocument): ArazzoWorkflow | undefined {
  if (!step.workflowId) return undefined;
  const found = document.workflows.find((w) => w.workflowId === step.workflowId);
  if (!found) throw new Error(`Step ${step.stepId} runs workflow ${step.workflowId}, which this document lacks.`);
  return found;
}

export function workflowOf(document: ArazzoDocument, workflowId: string): ArazzoWorkflow {
  const found = document.workflows.find((w) => w.workflowId === workflowId);
  if (!found) throw new Error(`No workflow ${workflowId} in ${document.info.title}.`);
  return found;
}

/** One call of a workflow, in the order it is made when every step succeeds. */
export interface PlannedCall extends OperationRef {
  /** The step's place: its stepId, after those of the steps that ran its workflow (`setup/register`). */
  path: string[];
  step: ArazzoStep;
  /** The workflows it sits in, outermost first. */
  workflows: string[];
}

/** Every call a workflow makes when each step succeeds, sub-workflows expanded in place. */
export function plannedCalls(
  document: ArazzoDocument,
  workflow: ArazzoWorkflow,
  sources: Sources,
  within: { path: string[]; workflows: string[] } = { path: [], workflows: [] },
): PlannedCall[] {
  const workflows = [...within.workflows, workflow.workflowId];
  if (within.workflows.includes(workflow.workflowId))
    throw new Error(`Workflow ${workflow.workflowId} runs itself (${workflows.join(' > ')}).`);
  return workflow.steps.flatMap((step) => {
    const path = [...within.path, step.stepId];
    const sub = subWorkflowOf(step, document);
    if (sub) return plannedCalls(document, sub, sources, { path, workflows });
    return [{ ...operationOf(step, sources), path, step, workflows }];
  });
}

/** The outputs of steps that later steps read (`$steps.register.outputs.userId`), as the data that flows. */
export function stepReferences(value: unknown): { stepId: string; output: string }[] {
  const found: { stepId: string; output: string }[] = [];
  const visit = (node: unknown) => {
    if (typeof node === 'string')
      for (const match of node.matchAll(/\$steps\.([\w-]+)\.outputs\.([\w-]+)/g))
        found.push({ stepId: match[1]!, output: match[2]! });
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return found;
}

/** The inputs of a workflow a step reads (`$inputs.amount`). */
export function inputReferences(value: unknown): string[] {
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (typeof node === 'string') for (const match of node.matchAll(/\$inputs\.([\w-]+)/g)) found.add(match[1]!);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return [...found];
}
