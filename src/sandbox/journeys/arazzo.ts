// The one model of the journeys' Arazzo 1.0 documents, for every user of them: the runner (./runnable.ts,
// ./respect.ts), the portability check and the docs pages (scripts/journeys/), and the journey console in the
// browser (src/console/journey/), so nothing here imports a Node module. ./arazzo-files.ts reads the files into it.
// The documents come in two forms: the files as read (ArazzoFile: the runner and the portability check follow a
// call from file to file by the source's url), and a Library: the same documents with each source resolved to an
// API family and each family's operations, which the docs build makes (scripts/journeys/journey-docs.ts) and hands
// the console as JSON, since a browser has neither the files nor redocly.yaml. Over a library: each step's operation
// and family, and the calls a workflow makes in order, sub-workflows included.

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

export interface ArazzoStep {
  stepId: string;
  description?: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  parameters?: ArazzoParameter[];
  requestBody?: { contentType?: string; payload?: unknown; replacements?: { target: string; value: unknown }[] };
  successCriteria?: Criterion[];
  onSuccess?: FlowAction[];
  onFailure?: FlowAction[];
  outputs?: Record<string, string>;
}

/** A workflow's inputs: a JSON schema, or a `$ref` to one of the document's `components.inputs`. */
export interface InputsSchema {
  $ref?: string;
  type?: string;
  description?: string;
  required?: string[];
  properties?: Record<string, Record<string, unknown>>;
}

export interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  description?: string;
  inputs?: InputsSchema;
  steps: ArazzoStep[];
  outputs?: Record<string, string>;
}

interface SourceDescription {
  name: string;
  url: string;
  /** `openapi` or `arazzo`. */
  type?: string;
}

export interface ArazzoDocument {
  arazzo: string;
  info: { title: string; summary?: string; description?: string; version: string };
  sourceDescriptions: SourceDescription[];
  workflows: ArazzoWorkflow[];
  components?: { inputs?: Record<string, InputsSchema> };
}

/** One Arazzo file as read (./arazzo-files.ts): its path, its name in its folder, and its document. */
export interface ArazzoFile {
  file: string;
  name: string;
  doc: ArazzoDocument;
}

/** A step's operation: the API family whose description holds it, and its operationId there. */
export interface OperationRef {
  family: string;
  operationId: string;
}

/** One Arazzo file: its document, and what its source descriptions name. */
interface LibraryFile {
  document: ArazzoDocument;
  /** Each OpenAPI source description's API family (`v1` to `v1`). */
  families: Record<string, string>;
  /** Each Arazzo source description's file, as the library names it (`common` to `common.arazzo.yaml`). */
  workflows: Record<string, string>;
}

/** The Arazzo files a journey reads, by file name, and each API family's operationIds. */
export interface Library {
  files: Record<string, LibraryFile>;
  operations: Record<string, string[]>;
}

/** A workflow and the file that holds it. */
export interface WorkflowRef {
  file: string;
  workflow: ArazzoWorkflow;
}

/**
 * A reference qualified by the source description that holds what it names (`$sourceDescriptions.v1.createPayout`):
 * the source's name and the name within it; undefined for a bare name.
 */
export function sourceReference(ref: string): { source: string; name: string } | undefined {
  const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(ref);
  return match ? { source: match[1]!, name: match[2]! } : undefined;
}

function fileOf(library: Library, file: string): LibraryFile {
  const found = library.files[file];
  if (!found) throw new Error(`No Arazzo file ${file}.`);
  return found;
}

/**
 * The operation a step calls (`$sourceDescriptions.v1.createPayout`, or a bare operationId found in one family);
 * the error says what is wrong without naming the step, which the caller does.
 */
export function operationOf(step: ArazzoStep, library: Library, file: string): OperationRef {
  const id = step.operationId;
  if (!id) throw new Error('it calls no operation (operationPath is not supported here).');
  const qualified = sourceReference(id);
  if (qualified) {
    const family = fileOf(library, file).families[qualified.source];
    if (!family) throw new Error(`it names the source description "${qualified.source}", which is not one of ours.`);
    if (!library.operations[family]?.includes(qualified.name))
      throw new Error(`${family} has no operation ${qualified.name}.`);
    return { family, operationId: qualified.name };
  }
  const holders = Object.entries(library.operations).filter(([, ids]) => ids.includes(id));
  if (holders.length !== 1)
    throw new Error(
      `${id} is in ${holders.length ? holders.map(([f]) => f).join(' and ') : 'no description'}; name its source description.`,
    );
  return { family: holders[0]![0], operationId: id };
}

export function workflowOf(library: Library, file: string, workflowId: string): ArazzoWorkflow {
  const found = fileOf(library, file).document.workflows.find((w) => w.workflowId === workflowId);
  if (!found) throw new Error(`No workflow ${workflowId} in ${file}.`);
  return found;
}

/** The workflow a step runs, if it runs one: of the same file, or of the file an Arazzo source names. */
export function subWorkflowOf(step: ArazzoStep, library: Library, file: string): WorkflowRef | undefined {
  if (!step.workflowId) return undefined;
  const qualified = sourceReference(step.workflowId);
  const target = qualified ? fileOf(library, file).workflows[qualified.source] : file;
  if (!target)
    throw new Error(`Step ${step.stepId} names the source description "${qualified!.source}", no Arazzo file.`);
  return { file: target, workflow: workflowOf(library, target, qualified ? qualified.name : step.workflowId) };
}

/** A workflow's inputs schema in `document`, its `$ref` to the document's `components.inputs` followed. */
export function inputsIn(document: ArazzoDocument, workflow: ArazzoWorkflow): InputsSchema | undefined {
  const ref = workflow.inputs?.$ref;
  if (!ref) return workflow.inputs ?? {};
  const name = /^#\/components\/inputs\/(.+)$/.exec(ref)?.[1];
  return name ? document.components?.inputs?.[name] : undefined;
}

/** A workflow's inputs schema, its `$ref` followed in the library's file. */
export function inputsOf(library: Library, file: string, workflow: ArazzoWorkflow): InputsSchema {
  const found = inputsIn(fileOf(library, file).document, workflow);
  if (!found)
    throw new Error(`Workflow ${workflow.workflowId}: its inputs ${workflow.inputs?.$ref} are not in ${file}.`);
  return found;
}

/**
 * The workflow a `workflowId` reference of `file` names, among `files`: in `file` itself, or
 * (`$sourceDescriptions.common.registerUser`) in the Arazzo file its source description's url names.
 */
export function calledWorkflow(
  files: ArazzoFile[],
  file: ArazzoFile,
  ref: string,
): { file: ArazzoFile; workflow: ArazzoWorkflow } | undefined {
  const qualified = sourceReference(ref);
  const source = qualified && file.doc.sourceDescriptions.find((s) => s.name === qualified.source);
  const target = qualified ? files.find((f) => f.name === source?.url.replace(/^\.\//, '')) : file;
  const workflow = target?.doc.workflows.find((w) => w.workflowId === (qualified ? qualified.name : ref));
  return target && workflow ? { file: target, workflow } : undefined;
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
  library: Library,
  at: WorkflowRef,
  within: { path: string[]; workflows: string[] } = { path: [], workflows: [] },
): PlannedCall[] {
  const { workflow, file } = at;
  const workflows = [...within.workflows, workflow.workflowId];
  if (within.workflows.includes(workflow.workflowId))
    throw new Error(`Workflow ${workflow.workflowId} runs itself (${workflows.join(' > ')}).`);
  return workflow.steps.flatMap((step) => {
    const path = [...within.path, step.stepId];
    const sub = subWorkflowOf(step, library, file);
    if (sub) return plannedCalls(library, sub, { path, workflows });
    return [{ ...operationOf(step, library, file), path, step, workflows }];
  });
}

/** Every step of a workflow, those that run a sub-workflow included, each with its place, sub-workflows expanded. */
export function allSteps(
  library: Library,
  at: WorkflowRef,
  path: string[] = [],
): { path: string[]; step: ArazzoStep }[] {
  return at.workflow.steps.flatMap((step) => {
    const here = [...path, step.stepId];
    const sub = subWorkflowOf(step, library, at.file);
    return [{ path: here, step }, ...(sub ? allSteps(library, sub, here) : [])];
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
