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
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
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
/** An Arazzo document as parsed from its YAML, named by its file. */
export interface PortableFile {
  name: string;
  doc: Node;
}

/** The Arazzo files (`*.arazzo.yaml`) of `dir`, parsed. */
export function readPortableFiles(dir: string): PortableFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort()
    .map((name) => ({ name, doc: parse(readFileSync(join(dir, name), 'utf8')) as Node }));
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const list = (value: unknown): Node[] => (Array.isArray(value) ? value.filter(isNode) : []);

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

const typeOf = (criterion: Node) => {
  const type = criterion.type;
  return String((isNode(type) ? type.type : type) ?? 'simple');
};

function criterionProblems(
  criterion: Node,
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
function stepProblems(step: Node, where: string): Omit<PortabilityProblem, 'file'>[] {
  const found: Omit<PortabilityProblem, 'file'>[] = extensionProblems(step, where).map((x) => ({
    rule: 'extension',
    where: x.where,
    message: `${x.key}: an extension changes how the step runs only in the tool that defines it (authentication is an Authorization header parameter)`,
  }));
  const values = [
    ...['operationId', 'workflowId', 'operationPath'].flatMap((k) =>
      typeof step[k] === 'string' && String(step[k]).startsWith('$') ? strings(step[k], `${where}.${k}`) : [],
    ),
    ...list(step.parameters).flatMap((p, i) => strings(p.value, `${where}.parameters[${i}].value`)),
    ...strings(isNode(step.requestBody) ? step.requestBody.payload : undefined, `${where}.requestBody.payload`),
    ...list(isNode(step.requestBody) ? step.requestBody.replacements : undefined).flatMap((r, i) =>
      strings(r.value, `${where}.requestBody.replacements[${i}].value`),
    ),
    ...strings(step.outputs, `${where}.outputs`),
  ];
  for (const { where: at, text } of values)
    for (const message of valueProblems(text)) found.push({ rule: 'expression', where: at, message });
  const criteria = [
    ...list(step.successCriteria).map((c, i) => ({ c, at: `${where}.successCriteria[${i}]` })),
    ...['onSuccess', 'onFailure'].flatMap((k) =>
      list(step[k]).flatMap((a, i) =>
        list(a.criteria).map((c, j) => ({ c, at: `${where}.${k}[${i}].criteria[${j}]` })),
      ),
    ),
  ];
  for (const { c, at } of criteria) found.push(...criterionProblems(c, at));
  return found;
}

/** A workflow's input schema, its `$ref` to `components.inputs` followed. */
function inputsOf(file: PortableFile, workflow: Node): { properties: Record<string, Node>; required: string[] } {
  let schema = isNode(workflow.inputs) ? workflow.inputs : {};
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/inputs\/(.+)$/.exec(schema.$ref) : null;
  if (ref) {
    const components = isNode(file.doc.components) ? file.doc.components : {};
    const inputs = isNode(components.inputs) ? components.inputs : {};
    schema = isNode(inputs[ref[1]!]) ? (inputs[ref[1]!] as Node) : {};
  }
  const properties = isNode(schema.properties) ? (schema.properties as Record<string, Node>) : {};
  return { properties, required: Array.isArray(schema.required) ? schema.required.map(String) : [] };
}

/** The workflow a step calls: in its own file, or in the Arazzo file a source description names. */
function calledWorkflow(files: PortableFile[], file: PortableFile, ref: string) {
  const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(ref);
  const source = match ? list(file.doc.sourceDescriptions).find((s) => s.name === match[1]) : undefined;
  const target = match ? files.find((f) => f.name === String(source?.url ?? '').replace(/^\.\//, '')) : file;
  const workflow = list(target?.doc.workflows).find((w) => w.workflowId === (match ? match[2] : ref));
  return target && workflow ? { file: target, workflow } : undefined;
}

/** The inputs a calling step leaves out that its workflow declares with a default or as required. */
function defaultProblems(files: PortableFile[], file: PortableFile, step: Node, where: string) {
  const called = typeof step.workflowId === 'string' ? calledWorkflow(files, file, step.workflowId) : undefined;
  if (!called) return [];
  const given = new Set(
    list(step.parameters)
      .filter((p) => p.in === undefined)
      .map((p) => String(p.name)),
  );
  const { properties, required } = inputsOf(called.file, called.workflow);
  return Object.entries(properties).flatMap(([name, schema]) => {
    if (given.has(name)) return [];
    const id = String(called.workflow.workflowId);
    if (schema.default !== undefined)
      return [{ rule: 'default' as const, where, message: `relies on the default of ${id}'s input ${name}: pass it` }];
    return required.includes(name)
      ? [{ rule: 'default' as const, where, message: `does not pass ${id}'s required input ${name}` }]
      : [];
  });
}

/** Every problem of `files` (all the Arazzo files a run reads, so calls between files are followed). */
export function checkPortability(files: PortableFile[]): PortabilityProblem[] {
  const called = new Set<Node>();
  for (const file of files)
    for (const workflow of list(file.doc.workflows))
      for (const step of list(workflow.steps))
        if (typeof step.workflowId === 'string') {
          const target = calledWorkflow(files, file, step.workflowId);
          if (target) called.add(target.workflow);
        }
  return files.flatMap((file) =>
    list(file.doc.workflows).flatMap((workflow) => {
      const id = String(workflow.workflowId);
      const found: Omit<PortabilityProblem, 'file'>[] = [];
      for (const step of list(workflow.steps)) {
        const where = `${id}.${String(step.stepId)}`;
        found.push(...stepProblems(step, where), ...defaultProblems(files, file, step, where));
      }
      for (const { where, text } of strings(workflow.outputs, `${id}.outputs`))
        for (const message of valueProblems(text)) found.push({ rule: 'expression', where, message });
      for (const x of extensionProblems({ ...workflow, steps: undefined }, id))
        found.push({ rule: 'extension', where: x.where, message: `${x.key}: an extension of the workflow` });
      if (!called.has(workflow))
        for (const [name, schema] of Object.entries(inputsOf(file, workflow).properties))
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
