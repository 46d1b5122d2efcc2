// One run of a workflow, step by step, without a browser: the next call prepared from the workflow (its
// parameters and body with their runtime expressions evaluated, the token its Authorization header gives), sent by a
// transport the caller gives (the console's: the `ramp-api` client and the answer check), then the step's
// success criteria, its outputs for the later steps, and where the run goes next (the next step, a sub-workflow,
// `onSuccess`/`onFailure` actions). Success criteria are simple conditions (./expressions.ts), regular
// expressions or JSONPath queries (jsonpath-plus). The caller may change a prepared call before it is sent.
import { JSONPath } from 'jsonpath-plus';
import {
  type ArazzoStep,
  type ArazzoWorkflow,
  type Criterion,
  type FlowAction,
  inputsOf,
  type Library,
  type OperationRef,
  operationOf,
  subWorkflowOf,
  workflowOf,
} from '../../sandbox/journeys/arazzo.js';
import { condition, type ExpressionContext, evaluate, resolveValue } from './expressions.js';

/** A request ready to send: the step's operation, its parameters and body, and the bearer token it carries. */
export interface PreparedCall extends OperationRef {
  stepPath: string[];
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  /** Absent when the step sends no body. */
  body?: unknown;
  /** The token the step's Authorization header parameter gives; none: the family's own sign-in. */
  token?: string;
}

/** The answer as the transport got and checked it. */
export interface StepAnswer {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
  /** Where the answer breaks the description (the console's check); empty when it follows it. */
  problems: string[];
}

export interface StepRecord {
  call: PreparedCall;
  answer?: StepAnswer;
  /** Why the step did not succeed: a criterion that failed, a broken answer, no answer. */
  failures: string[];
  outputs: Record<string, unknown>;
  /** Milliseconds to wait before the next call (a `retry` action's `retryAfter`). */
  waitMs: number;
}

export type Transport = (call: PreparedCall) => Promise<StepAnswer>;

interface Frame {
  /** The Arazzo file that holds the workflow. */
  file: string;
  workflow: ArazzoWorkflow;
  context: ExpressionContext;
  index: number;
  retries: Record<string, number>;
  /** The parent's step that runs this workflow. */
  parentStep?: ArazzoStep;
  path: string[];
}

interface RunState {
  records: StepRecord[];
  /** The workflow's outputs, once it ended well. */
  outputs?: Record<string, unknown>;
  /** Why the run stopped before its end. */
  failed?: string;
  done: boolean;
}

/** The workflow's inputs: those given, then the defaults its input schema declares. */
function withDefaults(
  library: Library,
  file: string,
  workflow: ArazzoWorkflow,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const inputs = { ...given };
  for (const [name, schema] of Object.entries(inputsOf(library, file, workflow).properties ?? {}))
    if (inputs[name] === undefined && schema.default !== undefined) inputs[name] = structuredClone(schema.default);
  return inputs;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function criterionHolds(criterion: Criterion, context: ExpressionContext): boolean {
  const type = typeof criterion.type === 'object' ? criterion.type.type : (criterion.type ?? 'simple');
  if (type === 'simple') return condition(criterion.condition, context);
  if (type === 'regex') {
    const subject = resolveValue(criterion.context ?? '', context);
    return new RegExp(criterion.condition).test(textOf(subject));
  }
  if (type === 'jsonpath') {
    // Holds when the JSONPath query finds something in the context (the body by default); an expression in
    // braces within it is put in as JSON, so a text value is quoted.
    const subject = resolveValue(criterion.context ?? '$response.body', context);
    const path = criterion.condition.replace(/\{(\$[^{}]+)\}/g, (_, inner: string) =>
      JSON.stringify(evaluate(inner, context)),
    );
    const found: unknown = JSONPath({ path, json: subject as object, wrap: true });
    return Array.isArray(found) && found.length > 0;
  }
  throw new Error(`A ${type} criterion is not evaluated by the console (${criterion.condition}).`);
}

/** Each criterion that does not hold, in words. */
function failedCriteria(criteria: Criterion[] | undefined, context: ExpressionContext): string[] {
  const failures: string[] = [];
  for (const criterion of criteria ?? []) {
    try {
      if (!criterionHolds(criterion, context)) failures.push(`${criterion.condition} does not hold`);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  return failures;
}

/** The bearer token of the step's Authorization header parameter, taken out of the headers the call sends. */
function tokenOf(header: Record<string, string>): string | undefined {
  const name = Object.keys(header).find((key) => key.toLowerCase() === 'authorization');
  if (!name) return undefined;
  const value = header[name]!;
  delete header[name];
  return value.replace(/^Bearer\s+/i, '');
}

type Freshen = (operation: OperationRef, body: unknown) => unknown;

/** What a run keeps between its calls: the workflows entered (innermost last) and what it has done. */
interface Runner {
  library: Library;
  frames: Frame[];
  state: RunState;
  freshen?: Freshen;
}

/** A run of `workflowId`; `freshen` gives each call's body its fresh unique values. */
export function startRun(options: {
  library: Library;
  /** The Arazzo file of the workflow. */
  file: string;
  workflowId: string;
  inputs: Record<string, unknown>;
  freshen?: Freshen;
}) {
  const { library } = options;
  const top = workflowOf(library, options.file, options.workflowId);
  const frames: Frame[] = [
    {
      file: options.file,
      workflow: top,
      context: { inputs: withDefaults(library, options.file, top, options.inputs), steps: {}, workflows: {} },
      index: 0,
      retries: {},
      path: [],
    },
  ];
  const state: RunState = { records: [], done: false };
  const runner: Runner = { library, frames, state, ...(options.freshen ? { freshen: options.freshen } : {}) };
  /** The next call, its expressions evaluated; undefined when the run has ended or failed. */
  const prepare = (): PreparedCall | undefined => prepareCall(runner);
  /** Sends `call` (the prepared one, possibly changed by the reader), checks it and moves on. */
  const send = (call: PreparedCall, transport: Transport): Promise<StepRecord> => sendCall(runner, call, transport);
  /** The workflow's inputs as the run reads them: a change here reaches every step not sent yet. */
  const inputs = frames[0]!.context.inputs;
  return { state, inputs, prepare, send };
}

/** Ends the innermost workflow: its outputs, given to the step that ran it (or to the run). */
function endFrame({ frames, state }: Runner): void {
  const frame = frames.pop()!;
  const outputs = resolveValue(frame.workflow.outputs ?? {}, frame.context) as Record<string, unknown>;
  const parent = frames.at(-1);
  if (!parent) {
    state.outputs = outputs;
    state.done = true;
    return;
  }
  parent.context.workflows![frame.workflow.workflowId] = { inputs: frame.context.inputs, outputs };
  const step = frame.parentStep!;
  const stepOutputs = resolveValue(step.outputs ?? {}, { ...parent.context, outputs }) as Record<string, unknown>;
  parent.context.steps[step.stepId] = { outputs: stepOutputs };
  parent.index += 1;
}

/** The frame of the sub-workflow `step` runs, its inputs from the step's parameters. */
function subFrame(
  library: Library,
  frame: Frame,
  step: ArazzoStep,
  sub: NonNullable<ReturnType<typeof subWorkflowOf>>,
): Frame {
  const given: Record<string, unknown> = {};
  for (const p of step.parameters ?? []) if (!p.in) given[p.name] = resolveValue(p.value, frame.context);
  return {
    file: sub.file,
    workflow: sub.workflow,
    context: {
      inputs: withDefaults(library, sub.file, sub.workflow, given),
      steps: {},
      workflows: frame.context.workflows ?? {},
    },
    index: 0,
    retries: {},
    parentStep: step,
    path: [...frame.path, step.stepId],
  };
}

/** Moves to the next step that calls an operation, entering and leaving workflows on the way. */
function nextOperationStep(runner: Runner): { frame: Frame; step: ArazzoStep } | undefined {
  const { library, frames, state } = runner;
  while (!state.done && !state.failed) {
    const frame = frames.at(-1)!;
    const step = frame.workflow.steps[frame.index];
    if (!step) {
      endFrame(runner);
      continue;
    }
    const sub = subWorkflowOf(step, library, frame.file);
    if (!sub) return { frame, step };
    frames.push(subFrame(library, frame, step, sub));
  }
  return undefined;
}

/** The call `step` makes, its parameters, token and body evaluated in its workflow's context. */
function callOf(runner: Runner, frame: Frame, step: ArazzoStep): PreparedCall {
  const operation = operationOf(step, runner.library, frame.file);
  const call: PreparedCall = {
    ...operation,
    stepPath: [...frame.path, step.stepId],
    path: {},
    query: {},
    header: {},
  };
  for (const p of step.parameters ?? []) {
    const value = resolveValue(p.value, frame.context);
    if (p.in === 'path') call.path[p.name] = textOf(value);
    else if (p.in === 'query') call.query[p.name] = value;
    else if (p.in === 'header') call.header[p.name] = textOf(value);
  }
  const token = tokenOf(call.header);
  if (token !== undefined) call.token = token;
  if (step.requestBody) {
    const body = resolveValue(step.requestBody.payload, frame.context);
    call.body = runner.freshen ? runner.freshen(operation, body) : body;
  }
  return call;
}

function prepareCall(runner: Runner): PreparedCall | undefined {
  const { state } = runner;
  let next: ReturnType<typeof nextOperationStep>;
  try {
    next = nextOperationStep(runner);
  } catch (error) {
    state.failed = (error as Error).message;
    return undefined;
  }
  if (!next) return undefined;
  const { frame, step } = next;
  try {
    return callOf(runner, frame, step);
  } catch (error) {
    state.failed = `Step ${[...frame.path, step.stepId].join(' / ')}: ${(error as Error).message}`;
    return undefined;
  }
}

/** The first action whose criteria hold. */
function chosen(actions: FlowAction[] | undefined, context: ExpressionContext): FlowAction | undefined {
  return actions?.find((action) => failedCriteria(action.criteria, context).length === 0);
}

/** Where the run goes after a step, by its actions; returns the milliseconds to wait first. */
function follow(state: RunState, frame: Frame, step: ArazzoStep, record: StepRecord, context: ExpressionContext) {
  const passed = record.failures.length === 0;
  const action = chosen(passed ? step.onSuccess : step.onFailure, context);
  if (action?.type === 'retry' && !passed) {
    const count = (frame.retries[step.stepId] ?? 0) + 1;
    if (count <= (action.retryLimit ?? 1)) {
      frame.retries[step.stepId] = count;
      return Math.max(0, (action.retryAfter ?? 0) * 1000);
    }
  }
  if (action?.type === 'goto' && action.stepId) {
    const target = frame.workflow.steps.findIndex((s) => s.stepId === action.stepId);
    if (target < 0) state.failed = `Step ${step.stepId} goes to ${action.stepId}, which its workflow lacks.`;
    else frame.index = target;
    return 0;
  }
  if (action?.type === 'end') {
    frame.index = frame.workflow.steps.length;
    return 0;
  }
  if (!passed) {
    state.failed = `Step ${record.call.stepPath.join(' / ')} (${record.call.operationId}) failed: ${record.failures.join('; ')}`;
    return 0;
  }
  frame.index += 1;
  return 0;
}

/** The context a step's criteria and outputs are evaluated in: its workflow's, with the request and answer. */
function answerContext(frame: Frame, call: PreparedCall, answer: StepAnswer): ExpressionContext {
  let body: unknown;
  try {
    body = answer.bodyText.trim() === '' ? undefined : JSON.parse(answer.bodyText);
  } catch {
    body = answer.bodyText;
  }
  return {
    ...frame.context,
    statusCode: answer.status,
    request: { headers: call.header, body: call.body, path: call.path, query: call.query },
    response: { headers: answer.headers, body },
  };
}

async function sendCall(runner: Runner, call: PreparedCall, transport: Transport): Promise<StepRecord> {
  const { frames, state } = runner;
  const frame = frames.at(-1)!;
  const step = frame.workflow.steps[frame.index]!;
  const record: StepRecord = { call, failures: [], outputs: {}, waitMs: 0 };
  let answer: StepAnswer;
  try {
    answer = await transport(call);
  } catch (error) {
    record.failures.push((error as Error).message);
    state.records.push(record);
    state.failed = `Step ${call.stepPath.join(' / ')} (${call.operationId}) got no answer: ${(error as Error).message}`;
    return record;
  }
  record.answer = answer;
  const context = answerContext(frame, call, answer);
  record.failures.push(...answer.problems.map((p) => `the answer breaks the description: ${p}`));
  record.failures.push(...failedCriteria(step.successCriteria, context));
  if (record.failures.length === 0) {
    try {
      record.outputs = resolveValue(step.outputs ?? {}, context) as Record<string, unknown>;
    } catch (error) {
      record.failures.push((error as Error).message);
    }
    frame.context.steps[step.stepId] = { outputs: record.outputs };
  }
  state.records.push(record);
  record.waitMs = follow(state, frame, step, record, context);
  return record;
}

export type Run = ReturnType<typeof startRun>;
