// The subset of Arazzo 1.0 runtime expressions a journey's steps use, evaluated in the browser: `$inputs.x`,
// `$steps.s.outputs.y`, `$outputs.y` (a sub-workflow's), `$workflows.w.outputs.y`, `$statusCode`, `$method`,
// `$url`, `$response.body#/json/pointer`, `$response.header.name`, `$request.*` alike; expressions embedded in
// text (`Bearer {$steps.token.outputs.accessToken}`); and the simple conditions of `successCriteria` (`==`, `!=`,
// `<`, `<=`, `>`, `>=`, `!`, `&&`, `||`, parentheses, numbers, 'text', true, false, null).
import { unescapePointerToken } from '../../client/lookup/index.js';

/** One HTTP message as expressions see it: status, headers (lower-case names), body (parsed JSON, else text). */
interface Message {
  headers: Record<string, string>;
  body?: unknown;
  /** Request only: the path and query parameters. */
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** What the expressions of one step can read. */
export interface ExpressionContext {
  inputs: Record<string, unknown>;
  steps: Record<string, { outputs: Record<string, unknown> }>;
  workflows?: Record<string, { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
  /** The outputs of the sub-workflow a step ran (its own `outputs` read them as `$outputs.x`). */
  outputs?: Record<string, unknown>;
  statusCode?: number;
  method?: string;
  url?: string;
  request?: Message;
  response?: Message;
}

/** A runtime expression that names nothing this context holds, or that is not one. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

/** The value at an RFC 6901 JSON pointer (`/data/0/id`); `undefined` where nothing is. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  if (!pointer.startsWith('/')) throw new ExpressionError(`"${pointer}" is not a JSON pointer (it starts with "/").`);
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const part = unescapePointerToken(raw);
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const own = (record: Record<string, unknown> | undefined, key: string) =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

function fromMessage(message: Message | undefined, which: string, rest: string[], pointer: string): unknown {
  if (!message) throw new ExpressionError(`$${which} is read before there is a ${which}.`);
  const [source, ...name] = rest;
  const key = name.join('.');
  if (source === 'body') return atPointer(message.body, pointer);
  if (source === 'header') return own(message.headers, key.toLowerCase());
  if (source === 'path') return own(message.path, key);
  if (source === 'query') return own(message.query, key);
  throw new ExpressionError(`$${which}.${source} is not a source of a ${which} (body, header, path, query).`);
}

/** The value of one runtime expression (`$steps.register.outputs.userId`, `$response.body#/id`). */
export function evaluate(expression: string, context: ExpressionContext): unknown {
  const hash = expression.indexOf('#');
  const head = hash < 0 ? expression : expression.slice(0, hash);
  const pointer = hash < 0 ? '' : expression.slice(hash + 1);
  const [root, ...rest] = head.split('.');
  const value = (() => {
    switch (root) {
      case '$statusCode':
        return context.statusCode;
      case '$method':
        return context.method;
      case '$url':
        return context.url;
      case '$inputs':
        return own(context.inputs, rest.join('.'));
      case '$outputs':
        return own(context.outputs, rest.join('.'));
      case '$steps': {
        const [stepId, field, ...name] = rest;
        const step = own(context.steps, stepId ?? '') as { outputs: Record<string, unknown> } | undefined;
        if (!step) throw new ExpressionError(`${expression}: no step "${stepId}" has run yet.`);
        if (field !== 'outputs') throw new ExpressionError(`${expression}: a step is read through its outputs.`);
        return own(step.outputs, name.join('.'));
      }
      case '$workflows': {
        const [workflowId, field, ...name] = rest;
        const workflow = own(context.workflows, workflowId ?? '') as
          | Record<string, Record<string, unknown>>
          | undefined;
        if (!workflow) throw new ExpressionError(`${expression}: no workflow "${workflowId}" has run yet.`);
        if (field !== 'outputs' && field !== 'inputs')
          throw new ExpressionError(`${expression}: a workflow is read through its inputs or outputs.`);
        return own(workflow[field], name.join('.'));
      }
      case '$response':
        return fromMessage(context.response, 'response', rest, pointer);
      case '$request':
        return fromMessage(context.request, 'request', rest, pointer);
      default:
        throw new ExpressionError(`${expression} is not a runtime expression this console evaluates.`);
    }
  })();
  // A pointer after a name (`$inputs.user#/id`) reads inside the value; the message sources read it above.
  return pointer && root !== '$response' && root !== '$request' ? atPointer(value, pointer) : value;
}

const WHOLE = /^\$[A-Za-z][\w.-]*(\(\))?(#[^\s{}]*)?$/;

/**
 * A value of a workflow (a parameter's `value`, a request body's `payload`) with its expressions evaluated: a
 * string that is one expression becomes its value as it is (a number stays a number); expressions embedded in
 * text (`{$inputs.x}`) are replaced by their text; objects and arrays are walked.
 */
export function resolveValue(value: unknown, context: ExpressionContext): unknown {
  if (typeof value === 'string') {
    if (WHOLE.test(value)) return evaluate(value, context);
    return value.replace(/\{(\$[^{}]+)\}/g, (_, inner: string) => {
      const found = evaluate(inner, context);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, context));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveValue(item, context)]));
  return value;
}

type Token = { kind: 'value'; value: unknown } | { kind: 'op'; op: string };

function tokenize(text: string, context: ExpressionContext): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const op = /^(==|!=|<=|>=|&&|\|\||<|>|!|\(|\))/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', op: op[0] });
      at += op[0].length;
      continue;
    }
    const quoted = /^'((?:[^']|'')*)'/.exec(rest);
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    const word = /^(true|false|null)\b/.exec(rest);
    const expression = /^\$[^\s=!<>&|()]+/.exec(rest);
    if (quoted) tokens.push({ kind: 'value', value: quoted[1]!.replace(/''/g, "'") });
    else if (number) tokens.push({ kind: 'value', value: Number(number[0]) });
    else if (word) tokens.push({ kind: 'value', value: JSON.parse(word[0]) });
    else if (expression) tokens.push({ kind: 'value', value: evaluate(expression[0], context) });
    else throw new ExpressionError(`The condition "${text}" cannot be read at "${rest}".`);
    at += (quoted ?? number ?? word ?? expression)![0].length;
  }
  return tokens;
}

/** `a == b` as a person reads it: `200 == '200'` holds, so a header's text compares with a number. */
function loosely(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && a === Number(b);
  if (typeof a === 'string' && typeof b === 'number') return loosely(b, a);
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (op === '==') return loosely(a, b);
  if (op === '!=') return !loosely(a, b);
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [Number(a), Number(b)];
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}

/** Whether a simple condition holds (`$statusCode == 201 && $response.body#/status == 'PENDING'`). */
export function condition(text: string, context: ExpressionContext): boolean {
  const tokens = tokenize(text, context);
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (op: string) => {
    const token = peek();
    return token?.kind === 'op' && token.op === op;
  };
  const fail = (why: string): never => {
    throw new ExpressionError(`The condition "${text}" ${why}.`);
  };
  const operand = (): unknown => {
    const token = tokens[at++];
    if (!token) return fail('ends too early');
    if (token.kind === 'value') return token.value;
    if (token.op === '!') return !operand();
    if (token.op === '(') {
      const inner = or();
      if (!isOp(')')) fail('misses a ")"');
      at++;
      return inner;
    }
    return fail(`has "${token.op}" where a value belongs`);
  };
  const comparison = (): unknown => {
    const left = operand();
    const token = peek();
    if (token?.kind === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(token.op)) {
      at++;
      return compare(token.op, left, operand());
    }
    return left;
  };
  const and = (): unknown => {
    let value = comparison();
    while (isOp('&&')) {
      at++;
      const right = comparison();
      value = Boolean(value) && Boolean(right);
    }
    return value;
  };
  const or = (): unknown => {
    let value = and();
    while (isOp('||')) {
      at++;
      const right = and();
      value = Boolean(value) || Boolean(right);
    }
    return value;
  };
  const result = or();
  if (at < tokens.length) fail('has more after its end');
  return Boolean(result);
}
