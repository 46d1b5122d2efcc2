// What the console knows about one operation, without a browser: the inputs it starts from (the description's
// examples), the constraints it shows, the request those inputs make, that request checked before it is sent,
// and an answer checked against the documented responses, both with the sandbox's own route checks
// (../sandbox/contract/router.ts).

import { type JsonObject, type OperationEntry, resolveRef } from '../client/lookup/index.js';
import type { OpenApiDocument } from '../sandbox/contract/document.js';
import { bodyExamples } from '../sandbox/contract/lookup.js';
import type { Route } from '../sandbox/contract/router.js';

type ParameterIn = 'path' | 'query' | 'header';

export interface ParameterInput {
  name: string;
  in: ParameterIn;
  required: boolean;
  schema: JsonObject;
  /** The constraints in words (`string, format uuid`, `integer, at least 1`). */
  constraints: string;
  /** The description's words about the parameter. */
  description: string;
}

/** The inputs as the person edits them: every parameter as text (empty: not sent), the body as JSON text. */
export interface Inputs {
  values: Record<string, string>;
  bodyText: string;
}

/** A request ready to send: parameters typed as the description gives them, and the parsed body. */
export interface Call {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  /** Absent when the operation takes no body; `bodyError` says why a body could not be parsed. */
  body?: unknown;
  bodyError?: string;
}

/** One problem of an answer or a request: where (a JSON pointer, or a parameter), and the schema's words. */
export interface Problem {
  where: string;
  message: string;
}

export interface Verdict {
  /** The documented response the answer was checked against (`200`, `4XX`, `default`), none if undocumented. */
  documented?: string;
  problems: Problem[];
}

const key = (p: { in: string; name: string }) => `${p.in}:${p.name}`;
export const inputKey = key;

/** The parameters the console offers, in the order the description gives them (cookies are not sent). */
export function parameterInputs(entry: OperationEntry): ParameterInput[] {
  return entry.parameters
    .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
    .map((p) => ({
      name: String(p.name),
      in: p.in as ParameterIn,
      required: p.in === 'path' || p.required === true,
      schema: (p.schema ?? {}) as JsonObject,
      constraints: constraintWords(p.schema ?? {}),
      description: String(p.description ?? '').trim(),
    }));
}

function exampleOf(doc: OpenApiDocument, p: JsonObject): unknown {
  if (p.example !== undefined) return p.example;
  const first = Object.values((p.examples ?? {}) as JsonObject)[0];
  if (first !== undefined) return resolveRef(doc, first).value;
  const schema = resolveRef(doc, p.schema ?? {});
  return schema.example ?? schema.examples?.[0] ?? schema.default ?? schema.enum?.[0];
}

/** The inputs the console starts from: each parameter's example (required ones, and optional ones that give one) and the first body example. */
export function initialInputs(doc: OpenApiDocument, entry: OperationEntry): Inputs {
  const values: Record<string, string> = {};
  for (const p of entry.parameters) {
    if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
    const example = p.in === 'path' || p.required || p.example !== undefined ? exampleOf(doc, p) : undefined;
    values[key(p as { in: string; name: string })] =
      example === undefined ? '' : typeof example === 'string' ? example : JSON.stringify(example);
  }
  const bodyText = entry.operation.requestBody ? JSON.stringify(bodyExamples(doc, entry)[0]?.[1] ?? {}, null, 2) : '';
  return { values, bodyText };
}

/** A schema's constraints in a few words, as the console shows them beside an input. */
function constraintWords(node: JsonObject): string {
  const schema = node;
  const words: string[] = [];
  const types = ([] as unknown[]).concat(schema.type ?? []).join(' or ');
  if (types) words.push(types);
  if (schema.format) words.push(`format ${schema.format}`);
  if (Array.isArray(schema.enum)) words.push(`one of ${schema.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`);
  if (schema.const !== undefined) words.push(`exactly ${JSON.stringify(schema.const)}`);
  if (schema.minimum !== undefined) words.push(`at least ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) words.push(`more than ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) words.push(`at most ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) words.push(`less than ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) words.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) words.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern) words.push(`matching ${schema.pattern}`);
  if (schema.$ref) words.push(`a ${String(schema.$ref).split('/').pop()}`);
  return words.join(', ');
}

/** Text as the schema types it: a number for a numeric parameter, a boolean for a boolean one, else the text. */
function typed(schema: JsonObject, raw: string): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if ((types.includes('number') || types.includes('integer')) && raw.trim() !== '' && !Number.isNaN(Number(raw)))
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** The request the inputs make: empty parameters are left out; the body parsed as JSON. */
export function buildCall(entry: OperationEntry, inputs: Inputs): Call {
  const call: Call = { path: {}, query: {}, header: {} };
  for (const p of parameterInputs(entry)) {
    const raw = inputs.values[key(p)] ?? '';
    if (raw === '') continue;
    if (p.in === 'path') call.path[p.name] = raw;
    else if (p.in === 'query') call.query[p.name] = typed(p.schema, raw);
    else call.header[p.name] = raw;
  }
  if (entry.operation.requestBody) {
    if (inputs.bodyText.trim() === '') call.body = undefined;
    else {
      try {
        call.body = JSON.parse(inputs.bodyText);
      } catch (error) {
        call.bodyError = `the body is not JSON: ${(error as Error).message}`;
      }
    }
  }
  return call;
}

/** `/amount must be >= 0` to its pointer and its words; `(root)` stands for the whole value. */
function splitProblem(line: string, prefix = ''): Problem {
  const space = line.indexOf(' ');
  const pointer = space < 0 ? line : line.slice(0, space);
  const message = space < 0 ? '' : line.slice(space + 1);
  const at = (rest: string) => (prefix ? `${prefix} ${rest}`.trim() : rest || '/');
  if (pointer === '(root)') return { where: at(''), message };
  if (pointer.startsWith('/')) return { where: at(pointer), message };
  return { where: at(''), message: line };
}

/** The request checked as the sandbox's request stage checks it: parameters, then the body. */
export function requestProblems(route: Route, entry: OperationEntry, call: Call): Problem[] {
  const problems: Problem[] = [];
  for (const p of parameterInputs(entry)) {
    const raw = p.in === 'path' ? call.path[p.name] : p.in === 'query' ? call.query[p.name] : call.header[p.name];
    if (raw === undefined && p.required) problems.push({ where: `${p.in} ${p.name}`, message: 'is required' });
  }
  if (call.bodyError) problems.push({ where: 'body', message: call.bodyError });
  const headers = Object.fromEntries(Object.entries(call.header).map(([k, v]) => [k.toLowerCase(), v]));
  const lines = route.checkRequest({
    path: call.path,
    query: { ...call.query },
    headers,
    body: call.body,
    hasBody: call.body !== undefined && !call.bodyError,
  });
  for (const line of lines) {
    if (/ is required$/.test(line) && !line.startsWith('body')) continue; // said above, once
    const body = /^body (.*)$/.exec(line);
    if (body) problems.push(splitProblem(body[1]!, 'body'));
    else {
      const param = /^(path|query|header) parameter (\S+?):? (.*)$/.exec(line);
      problems.push(
        param ? { where: `${param[1]} ${param[2]}`, message: param[3]! } : { where: 'request', message: line },
      );
    }
  }
  return problems;
}

/** The documented response keys of an operation, in the description's order. */
export const documentedStatuses = (entry: OperationEntry): string[] => Object.keys(entry.operation.responses ?? {});

/**
 * An answer checked against the operation's documented responses, with the route's own check: an undocumented
 * status, a body that is not JSON where JSON is documented, or each place the body breaks the schema.
 */
export function checkAnswer(route: Route, entry: OperationEntry, status: number, bodyText: string): Verdict {
  const documented = [String(status), `${String(status)[0]}XX`, 'default'].find((k) =>
    documentedStatuses(entry).includes(k),
  );
  if (!documented)
    return {
      problems: [
        {
          where: 'status',
          message: `${status} is not documented for ${entry.operationId} (documented: ${documentedStatuses(entry).join(', ')})`,
        },
      ],
    };
  let body: unknown;
  if (bodyText.trim() !== '') {
    try {
      body = JSON.parse(bodyText);
    } catch {
      return { documented, problems: [{ where: '/', message: 'the body is not JSON' }] };
    }
  }
  const lines = route.checkResponse(status, body) ?? [];
  return { documented, problems: lines.map((line) => splitProblem(line)) };
}
