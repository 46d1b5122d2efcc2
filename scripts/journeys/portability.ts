// Whether any Arazzo 1.0.1 runner runs the journeys as written, not only `redocly respect`: what a linter cannot
// see, since the specification's schema and Spectral's rules accept all of it.
// - `expression`: a runtime expression outside the specification's ABNF (./runtime-expression.ts), whole
//   (`$faker.string.uuid()`), embedded (`{$...}`), in a condition, or a `$name` in text without its braces
//   (a runner sends such text as it is).
// - `extension`: an `x-` extension in a step (`x-security`): only the tool that defines it applies it.
// - `criterion`: a JSONPath or XPath criterion with an expression inside its query, which is valid only once a
//   runner has put the value in with quoting of its own.
// - `default`: a step that calls a workflow without an input that workflow declares with a `default` (or as
//   required), or a workflow a runner starts whose inputs declare a default: Arazzo asks no runner to apply one.
// The files come from the journeys' one reader (src/sandbox/journeys/arazzo-files.ts); the check also looks at what
// the model leaves untyped (an extension anywhere, a step's replacements), so it walks some values as plain data.
import {
  type ArazzoFile,
  type ArazzoStep,
  type ArazzoWorkflow,
  type Criterion,
  calledWorkflow,
  inputsIn,
} from '../../src/sandbox/journeys/arazzo.js';
import { conditionExpressions, embeddedExpressions, expressionError } from './runtime-expression.js';

export type PortabilityRule = 'expression' | 'extension' | 'criterion' | 'default';

export interface PortabilityProblem {
  file: string;
  /** `workflowId`, `workflowId.stepId`, then where in it (`parameters[0].value`). */
  where: string;
  rule: PortabilityRule;
  message: string;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** Problems of one string value: a whole expression, embedded ones, or a `$name` left in text. */
function valueProblems(value: string): string[] {
  if (value.startsWith('$')) {
    const error = expressionError(value);
    return error ? [`"${value}": ${error}`] : [];
  }
  const problems = embeddedExpressions(value).flatMap((inner) => {
    const error = expressionError(inner);
    return error ? [`"{${inner}}": ${error}`] : [];
  });
  const bare = value.replace(/\{\$[^{}]*\}/g, '').match(/\$[A-Za-z][\w.]*(\(\))?/);
  if (bare) problems.push(`"${value}": ${bare[0]} is in text without {braces}, so a runner sends it as it is`);
  return problems;
}

/** Every string under `value` (a payload, an outputs map), with where it is. */
function strings(value: unknown, where: string): { where: string; text: string }[] {
  if (typeof value === 'string') return [{ where, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, `${where}[${i}]`));
  if (isNode(value)) return Object.entries(value).flatMap(([key, item]) => strings(item, `${where}.${key}`));
  return [];
}

const typeOf = (criterion: Criterion) => {
  const type = criterion.type;
  return String((isNode(type) ? type.type : type) ?? 'simple');
};

function criterionProblems(
  criterion: Criterion,
  where: string,
): { rule: PortabilityRule; where: string; message: string }[] {
  const type = typeOf(criterion);
  const condition = String(criterion.condition ?? '');
  const found: { rule: PortabilityRule; where: string; message: string }[] = [];
  if (typeof criterion.context === 'string')
    for (const message of valueProblems(criterion.context))
      found.push({ rule: 'expression', where: `${where}.context`, message });
  if (type === 'jsonpath' || type === 'xpath') {
    if (/\{\$|\$(?:inputs|steps|outputs|workflows|response|request|statusCode|components)\b/.test(condition))
      found.push({
        rule: 'criterion',
        where,
        message: `the ${type} query "${condition}" embeds a runtime expression: no runner is asked to put a value into a query; read the record by its ID and compare with a simple condition`,
      });
  } else if (type === 'simple') {
    for (const expression of conditionExpressions(condition)) {
      const error = expressionError(expression);
      if (error) found.push({ rule: 'expression', where, message: `"${expression}" in "${condition}": ${error}` });
    }
  }
  return found;
}

function extensionProblems(value: unknown, where: string): { where: string; key: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => extensionProblems(item, `${where}[${i}]`));
  if (!isNode(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key.startsWith('x-') ? [{ where, key }] : extensionProblems(item, `${where}.${key}`),
  );
}

/** A step's problems: its extensions, the expressions of its values, its criteria. */
function stepProblems(step: ArazzoStep, where: string): Omit<PortabilityProblem, 'file'>[] {
  const found: Omit<PortabilityProblem, 'file'>[] = extensionProblems(step, where).map((x) => ({
    rule: 'extension',
    where: x.where,
    message: `${x.key}: an extension changes how the step runs only in the tool that defines it (authentication is an Authorization header parameter)`,
  }));
  const references = { operationId: step.operationId, workflowId: step.workflowId, operationPath: step.operationPath };
  const values = [
    ...Object.entries(references).flatMap(([k, ref]) => (ref?.startsWith('$') ? strings(ref, `${where}.${k}`) : [])),
    ...(step.parameters ?? []).flatMap((p, i) => strings(p.value, `${where}.parameters[${i}].value`)),
    ...strings(step.requestBody?.payload, `${where}.requestBody.payload`),
    ...(step.requestBody?.replacements ?? []).flatMap((r, i) =>
      strings(r.value, `${where}.requestBody.replacements[${i}].value`),
    ),
    ...strings(step.outputs, `${where}.outputs`),
  ];
  for (const { where: at, text } of values)
    for (const message of valueProblems(text)) found.push({ rule: 'expression', where: at, message });
  const criteria = [
    ...(step.successCriteria ?? []).map((c, i) => ({ c, at: `${where}.successCriteria[${i}]` })),
    ...(['onSuccess', 'onFailure'] as const).flatMap((k) =>
      (step[k] ?? []).flatMap((a, i) =>
        (a.criteria ?? []).map((c, j) => ({ c, at: `${where}.${k}[${i}].criteria[${j}]` })),
      ),
    ),
  ];
  for (const { c, at } of criteria) found.push(...criterionProblems(c, at));
  return found;
}

/** A workflow's declared inputs: their schemas by name, and which are required. */
function declaredInputs(
  file: ArazzoFile,
  workflow: ArazzoWorkflow,
): { properties: Record<string, Node>; required: string[] } {
  const schema = inputsIn(file.doc, workflow) ?? {};
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

/** The inputs a calling step leaves out that its workflow declares with a default or as required. */
function defaultProblems(files: ArazzoFile[], file: ArazzoFile, step: ArazzoStep, where: string) {
  const called = step.workflowId ? calledWorkflow(files, file, step.workflowId) : undefined;
  if (!called) return [];
  const given = new Set((step.parameters ?? []).filter((p) => p.in === undefined).map((p) => p.name));
  const { properties, required } = declaredInputs(called.file, called.workflow);
  return Object.entries(properties).flatMap(([name, schema]) => {
    if (given.has(name)) return [];
    const id = called.workflow.workflowId;
    if (schema.default !== undefined)
      return [{ rule: 'default' as const, where, message: `relies on the default of ${id}'s input ${name}: pass it` }];
    return required.includes(name)
      ? [{ rule: 'default' as const, where, message: `does not pass ${id}'s required input ${name}` }]
      : [];
  });
}

/** Every problem of `files` (all the Arazzo files a run reads, so calls between files are followed). */
export function checkPortability(files: ArazzoFile[]): PortabilityProblem[] {
  const called = new Set<ArazzoWorkflow>();
  for (const file of files)
    for (const workflow of file.doc.workflows)
      for (const step of workflow.steps)
        if (step.workflowId) {
          const target = calledWorkflow(files, file, step.workflowId);
          if (target) called.add(target.workflow);
        }
  return files.flatMap((file) =>
    file.doc.workflows.flatMap((workflow) => {
      const id = workflow.workflowId;
      const found: Omit<PortabilityProblem, 'file'>[] = [];
      for (const step of workflow.steps) {
        const where = `${id}.${step.stepId}`;
        found.push(...stepProblems(step, where), ...defaultProblems(files, file, step, where));
      }
      for (const { where, text } of strings(workflow.outputs, `${id}.outputs`))
        for (const message of valueProblems(text)) found.push({ rule: 'expression', where, message });
      for (const x of extensionProblems({ ...workflow, steps: undefined }, id))
        found.push({ rule: 'extension', where: x.where, message: `${x.key}: an extension of the workflow` });
      if (!called.has(workflow))
        for (const [name, schema] of Object.entries(declaredInputs(file, workflow).properties))
          if (schema.default !== undefined)
            found.push({
              rule: 'default',
              where: id,
              message: `input ${name} has a default, which a runner need not apply: the runner must give it`,
            });
      return found.map((p) => ({ file: file.name, ...p }));
    }),
  );
}

/** The problems as lines, `file workflow.step [rule] message`; empty text when there are none. */
export function portabilityReport(problems: PortabilityProblem[]): string {
  return problems.map((p) => `${p.file} ${p.where} [${p.rule}] ${p.message}`).join('\n');
}
