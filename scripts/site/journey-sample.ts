// A journey's TypeScript sample: one async function that runs the workflow with the `ramp-api` clients, generated
// from the workflow itself. Each step is one call of its family's client (a step's `Authorization: Bearer {...}`
// header parameter gives the client its token; none: the family's token call needs none), its answer read by the step's outputs, its
// success criteria checked; sub-workflows are written in place, so the function is whole.

import type { JsonObject } from '../../src/client/lookup/index.js';
import { pointerParts } from '../../src/client/lookup/index.js';
import type { ArazzoParameter, ArazzoStep, Library, WorkflowRef } from '../../src/sandbox/journeys/arazzo.js';
import { inputsOf, operationOf, subWorkflowOf } from '../../src/sandbox/journeys/arazzo.js';
import { answerSchema, describedDepth } from '../journeys/described.js';
import type { OpenApiDocument } from '../openapi/apis.js';
import { clientOf } from './samples.js';

/** A step's answer as the sample reads it: its variable, the part that holds the body, and the body's schema. */
interface AnswerRead {
  name: string;
  /** `data` for a success, `error` for the error status a step expects (the client types each). */
  body: 'data' | 'error';
  doc?: OpenApiDocument;
  schema?: JsonObject;
}
const NO_ANSWER: AnswerRead = { name: 'answer', body: 'data' };

/** What a workflow's runtime expressions stand for in the generated code. */
interface Scope {
  inputs: Record<string, string>;
  /** By stepId, the variable that holds its outputs. */
  steps: Record<string, string>;
  /** The sub-workflow's outputs (`$outputs.x`), as code. */
  outputs?: Record<string, string>;
}

const identifier = (text: string) => {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words
    .map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
    .join('');
  return /^[0-9]/.test(name) ? `_${name}` : name || '_';
};

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** A JSON pointer as property reads (`/data/0/id` to `?.data?.[0]?.id`). */
function reads(pointer: string): string {
  return partReads(pointerParts(pointer));
}

function partReads(parts: string[]): string {
  return parts
    .map((part) =>
      /^\d+$/.test(part) ? `?.[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `?.${part}` : `?.[${quote(part)}]`,
    )
    .join('');
}

/**
 * A read of the answer's body: with the client's types as far as the description describes it, then, where it
 * leaves an object open (fields only the sandbox gives), with `field`, as unknown.
 */
function bodyRead(read: AnswerRead, pointer: string): string {
  const parts = pointerParts(pointer);
  const base = `${read.name}.${read.body}`;
  const depth = read.doc && read.schema ? describedDepth(read.doc, read.schema, parts).depth : parts.length;
  const typed = `${base}${partReads(parts.slice(0, depth))}`;
  return depth === parts.length ? typed : `field(${typed}, ${parts.slice(depth).map(quote).join(', ')})`;
}

/** One runtime expression as code; `read` is the step's answer, for `$statusCode` and `$response`. */
function expressionCode(expression: string, scope: Scope, read: AnswerRead = NO_ANSWER): string {
  const answer = read.name;
  const hash = expression.indexOf('#');
  const head = hash < 0 ? expression : expression.slice(0, hash);
  const pointer = hash < 0 ? '' : expression.slice(hash + 1);
  const [root, ...rest] = head.split('.');
  if (root === '$inputs') return `${scope.inputs[rest.join('.')] ?? 'undefined'}${reads(pointer)}`;
  if (root === '$steps') return `${scope.steps[rest[0]!] ?? 'undefined'}.${rest.slice(2).join('.')}${reads(pointer)}`;
  if (root === '$outputs') return `${scope.outputs?.[rest.join('.')] ?? 'undefined'}${reads(pointer)}`;
  if (root === '$statusCode') return `${answer}.response.status`;
  if (root === '$response' && rest[0] === 'body') return bodyRead(read, pointer);
  if (root === '$response' && rest[0] === 'header')
    return `${answer}.response.headers.get(${quote(rest.slice(1).join('.'))})`;
  throw new Error(`The journey sample cannot write ${expression} as code.`);
}

/** A workflow value (a parameter's value, a payload) as code, its expressions replaced. */
function valueCode(value: unknown, scope: Scope, indent: string): string {
  if (typeof value === 'string') {
    if (/^\$[A-Za-z][\w.-]*(\(\))?(#\S*)?$/.test(value)) return expressionCode(value, scope);
    if (!/\{\$[^{}]+\}/.test(value)) return quote(value);
    const parts = value.split(/(\{\$[^{}]+\})/).map((part) => {
      const inner = /^\{(\$[^{}]+)\}$/.exec(part)?.[1];
      return inner ? `\${${expressionCode(inner, scope)}}` : part.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${');
    });
    return `\`${parts.join('')}\``;
  }
  if (Array.isArray(value)) return `[${value.map((v) => valueCode(v, scope, indent)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const inner = `${indent}  `;
    const entries = Object.entries(value).map(
      ([key, item]) =>
        `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)}: ${valueCode(item, scope, inner)},`,
    );
    return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(value);
}

/** A simple condition as code: its expressions replaced, `==` as `===`. */
function conditionCode(text: string, scope: Scope, read: AnswerRead): string {
  return text
    .replace(/\$[^\s=!<>&|()]+/g, (expression) => expressionCode(expression, scope, read))
    .replace(/([^=!<>])==(?!=)/g, '$1===')
    .replace(/!=(?!=)/g, '!==');
}

interface Writer {
  lines: string[];
  families: Set<string>;
  names: Set<string>;
  /** The type of each input the sample sends whole as a request body: that body's type in the client's types. */
  inputTypes: Map<string, string>;
  /** Each family's description, by family: what the answers' reads are typed by. */
  docs: Record<string, OpenApiDocument>;
}

/** Each family's operation types, as `ramp-api` exports them, and the name the sample gives them. */
const OPERATION_TYPES: Record<string, { from: string; name: string; alias: string }> = {
  business: { from: 'ramp-api/business', name: 'operations', alias: 'BusinessOperations' },
  v1: { from: 'ramp-api/v1', name: 'operations', alias: 'V1Operations' },
  sandbox: { from: 'ramp-api/sandbox', name: 'sandboxOperationTypes', alias: 'SandboxOperations' },
};

/** The status a step's criteria expect (`$statusCode == 422`), if they name one. */
const expectedStatus = (step: ArazzoStep) =>
  (step.successCriteria ?? []).map((c) => /^\s*\$statusCode == (\d{3})\s*$/.exec(c.condition)?.[1]).find(Boolean);

/** A variable name not used yet in the function. */
function fresh(writer: Writer, wanted: string): string {
  let name = identifier(wanted);
  for (let n = 2; writer.names.has(name); n++) name = `${identifier(wanted)}${n}`;
  writer.names.add(name);
  return name;
}

function paramsCode(parameters: ArazzoParameter[], scope: Scope): { params: string; token?: string } {
  const groups: Record<string, string[]> = {};
  let token: string | undefined;
  for (const p of parameters) {
    if (!p.in || p.in === 'cookie') continue;
    if (p.in === 'header' && p.name.toLowerCase() === 'authorization') {
      // `Bearer {$expression}`: the client takes the token alone.
      const bearer = typeof p.value === 'string' ? /^Bearer \{(\$[^{}]+)\}$/i.exec(p.value) : null;
      if (!bearer) throw new Error(`The journey sample writes an Authorization header only as Bearer {$...}.`);
      token = expressionCode(bearer[1]!, scope);
      continue;
    }
    const value = valueCode(p.value, scope, '      ');
    // Path, header and query values are text on the wire (the journeys' query values are IDs): an output (typed
    // unknown where the description leaves it open) or an optional input is turned into text as the request sends it.
    const code = !/^'.*'$/.test(value) ? `String(${value})` : value;
    groups[p.in] = [...(groups[p.in] ?? []), `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : quote(p.name)}: ${code}`];
  }
  const params = Object.entries(groups)
    .map(([where, entries]) => `${where}: { ${entries.join(', ')} }`)
    .join(', ');
  return { params, ...(token ? { token } : {}) };
}

function writeStep(writer: Writer, library: Library, file: string, step: ArazzoStep, scope: Scope): void {
  const sub = subWorkflowOf(step, library, file);
  if (sub) {
    const inputs: Record<string, string> = {};
    for (const p of step.parameters ?? []) if (!p.in) inputs[p.name] = valueCode(p.value, scope, '  ');
    const { workflowId, summary } = sub.workflow;
    writer.lines.push(
      `  // ${step.stepId}: workflow ${workflowId}${summary ? `, ${summary.replace(/\.$/, '')}` : ''}.`,
    );
    const outputs = writeWorkflow(writer, library, sub, inputs);
    const variable = fresh(writer, step.stepId);
    const own = Object.entries(step.outputs ?? {}).map(
      ([name, expression]) => `${name}: ${expressionCode(expression, { ...scope, outputs })}`,
    );
    writer.lines.push(`  const ${variable} = { ${own.join(', ')} };`);
    scope.steps[step.stepId] = variable;
    return;
  }
  const { family, operationId } = operationOf(step, library, file);
  writer.families.add(family);
  const client = clientOf(family);
  const answer = fresh(writer, `${step.stepId}Answer`);
  const { params, token } = paramsCode(step.parameters ?? [], scope);
  const payload = step.requestBody ? valueCode(step.requestBody.payload, scope, '    ') : undefined;
  const whole = payload && /^inputs\.(\w+)$/.exec(payload);
  if (whole)
    writer.inputTypes.set(
      whole[1]!,
      `${OPERATION_TYPES[family]!.alias}['${operationId}']['requestBody']['content']['application/json']`,
    );
  const args = [params ? `params: { ${params} }` : '', payload ? `body: ${payload}` : ''].filter(Boolean);
  if (step.description) writer.lines.push(`  // ${step.stepId}: ${step.description.trim().replace(/\s+/g, ' ')}`);
  const callCode = `await ${client.variable}(${token ?? ''}).${operationId}(${args.length ? `{\n    ${args.join(',\n    ')},\n  }` : ''})`;
  const criteria = (step.successCriteria ?? []).filter((c) => !c.type || c.type === 'simple');
  const status = expectedStatus(step);
  const doc = writer.docs[family];
  const read: AnswerRead = {
    name: answer,
    body: status && status >= '400' ? 'error' : 'data',
    ...(doc && status ? { doc, schema: answerSchema(doc, operationId, status) } : {}),
  };
  const holds = criteria.map((c) => conditionCode(c.condition, scope, read)).join(' && ') || 'true';
  const failure = quote(`${step.stepId}: ${criteria.map((c) => c.condition).join(' && ')} does not hold`);
  const retry = step.onFailure?.find((action) => action.type === 'retry');
  if (retry) {
    // The step's retry action: the call again after retryAfter seconds, at most retryLimit more times.
    writer.lines.push(
      `  let ${answer} = ${callCode.replace(/\n/g, '\n  ')};`,
      `  for (let retries = 0; !(${holds}); retries++) {`,
      `    if (retries === ${retry.retryLimit ?? 1}) throw new Error(${failure});`,
      `    await new Promise((resolve) => setTimeout(resolve, ${(retry.retryAfter ?? 0) * 1000}));`,
      `    ${answer} = ${callCode.replace(/\n/g, '\n    ')};`,
      '  }',
    );
  } else {
    writer.lines.push(`  const ${answer} = ${callCode};`);
    if (criteria.length) writer.lines.push(`  if (!(${holds})) throw new Error(${failure});`);
  }
  if (step.outputs && Object.keys(step.outputs).length) {
    const variable = fresh(writer, step.stepId);
    // Each output the answer must have given, typed as the client types it.
    const own = Object.entries(step.outputs).map(
      ([name, expression]) =>
        `${name}: given(${expressionCode(expression, scope, read)}, ${quote(`${step.stepId}.${name}`)})`,
    );
    writer.lines.push(`  const ${variable} = { ${own.join(', ')} };`);
    scope.steps[step.stepId] = variable;
  }
}

/** Writes a workflow's steps; returns its outputs as code. */
function writeWorkflow(
  writer: Writer,
  library: Library,
  at: WorkflowRef,
  inputs: Record<string, string>,
): Record<string, string> {
  const { workflow, file } = at;
  const scope: Scope = { inputs: { ...inputs }, steps: {} };
  for (const [name, schema] of Object.entries(inputsOf(library, file, workflow).properties ?? {}))
    if (schema.default !== undefined)
      scope.inputs[name] = inputs[name]
        ? /^('.*'|-?[\d.]+|true|false)$/.test(inputs[name])
          ? inputs[name]
          : `(${inputs[name]} ?? ${valueCode(schema.default, scope, '  ')})`
        : valueCode(schema.default, scope, '  ');
  for (const step of workflow.steps) writeStep(writer, library, file, step, scope);
  return Object.fromEntries(
    Object.entries(workflow.outputs ?? {}).map(([name, expression]) => [name, expressionCode(expression, scope)]),
  );
}

const TYPES: Record<string, string> = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean' };

/**
 * The function's `inputs` type: an input sent whole as a body has that body's type; the others their schema's
 * type. The inputs its code reads are required, the others optional.
 */
function inputType(writer: Writer, properties: Record<string, Record<string, unknown>>): string {
  const code = writer.lines.join('\n');
  return Object.entries(properties)
    .map(([name, schema]) => {
      const type = writer.inputTypes.get(name) ?? TYPES[String(schema.type)] ?? 'unknown';
      return `${name}${new RegExp(`\\binputs\\.${name}\\b`).test(code) ? '' : '?'}: ${type}`;
    })
    .join('; ');
}

/** The imports: each family's client factory, and the operation types of those whose bodies type an input. */
function importLines(writer: Writer, resolve: (specifier: string) => string): string[] {
  const imports = new Map<string, string[]>();
  const add = (from: string, name: string) => imports.set(from, [...(imports.get(from) ?? []), name]);
  for (const family of writer.families) add(clientOf(family).from, clientOf(family).create);
  const typed = [...writer.inputTypes.values()].join(' ');
  for (const { from, name, alias } of Object.values(OPERATION_TYPES))
    if (typed.includes(`${alias}[`)) add(from, `type ${name}${name === alias ? '' : ` as ${alias}`}`);
  return [...imports].map(([from, names]) => `import { ${names.sort().join(', ')} } from '${resolve(from)}';`);
}

/** Reads a field the description leaves open (the sandbox gives it), as unknown. */
const FIELD_HELPER = [
  '  // A field of an answer the description leaves open (only the sandbox gives it): unknown until checked.',
  '  const field = (value: unknown, ...path: string[]): unknown =>',
  "    path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);",
];

/** The sample: imports, and one exported function named after the workflow that runs it and returns its outputs. */
export function journeySample(
  library: Library,
  at: WorkflowRef,
  docs: Record<string, OpenApiDocument>,
  resolve: (specifier: string) => string = (specifier) => specifier,
): string {
  const { workflow } = at;
  const writer: Writer = {
    lines: [],
    families: new Set(),
    names: new Set(['inputs', 'baseUrl', 'business', 'v1', 'sandbox', 'given']),
    inputTypes: new Map(),
    docs,
  };
  const schema = inputsOf(library, at.file, workflow);
  const inputs = Object.fromEntries(Object.keys(schema.properties ?? {}).map((name) => [name, `inputs.${name}`]));
  const outputs = writeWorkflow(writer, library, at, inputs);
  const factories = [...writer.families].map((family) => {
    const client = clientOf(family);
    const auth = client.auth === 'adminToken' ? 'adminToken: String(token)' : 'auth: { token: String(token) }';
    return `  const ${client.variable} = (token?: unknown) =>\n    ${client.create}({ baseUrl: process.env.${client.env.url} ?? baseUrl, retry: false, ...(token ? { ${auth} } : {}) });`;
  });
  const name = identifier(workflow.workflowId);
  return [
    ...importLines(writer, resolve),
    '',
    `/** ${(workflow.summary ?? workflow.workflowId).trim()} Runs the workflow ${workflow.workflowId}; returns its outputs. */`,
    `export async function ${name}(inputs: { ${inputType(writer, schema.properties ?? {})} }, baseUrl = 'http://127.0.0.1:4020') {`,
    "  // A value a step's answer must give (an output the later steps read).",
    '  const given = <T>(value: T | null | undefined, what: string): T => {',
    "    if (value === undefined || value === null) throw new Error(what + ': the answer does not give it');",
    '    return value;',
    '  };',
    ...(writer.lines.some((line) => line.includes('field(')) ? FIELD_HELPER : []),
    ...factories,
    ...writer.lines,
    `  return { ${Object.entries(outputs)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} };`,
    '}',
    '',
  ].join('\n');
}
