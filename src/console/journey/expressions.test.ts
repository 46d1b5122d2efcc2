// The runtime expressions and conditions a journey's steps use, evaluated as Arazzo 1.0 defines them.
import { describe, expect, it } from 'vitest';
import {
  atPointer,
  condition,
  type ExpressionContext,
  ExpressionError,
  evaluate,
  resolveValue,
} from './expressions.js';

const context: ExpressionContext = {
  inputs: { userId: 'u-1', amount: 150000, credentials: { clientId: 'c', clientSecret: 's' } },
  steps: { token: { outputs: { accessToken: 'abc', user: { id: 'u-9' } } } },
  workflows: { setup: { outputs: { destinationId: 'd-1' } } },
  outputs: { payoutId: 'p-1' },
  statusCode: 201,
  method: 'POST',
  url: 'http://127.0.0.1:4020/api/v1/users/u-1/payouts',
  request: { headers: { 'content-type': 'application/json' }, body: { amount: 5 }, path: { user_id: 'u-1' } },
  response: {
    headers: { 'x-request-id': 'r-7' },
    body: { id: 'p-1', status: 'PENDING', 'a/b': 1, 'm~n': 2, items: [{ id: 'first' }] },
  },
};

describe('runtime expressions', () => {
  it('read the inputs, the outputs of earlier steps and of workflows, keeping their types', () => {
    expect(evaluate('$inputs.amount', context)).toBe(150000);
    expect(evaluate('$inputs.credentials', context)).toEqual({ clientId: 'c', clientSecret: 's' });
    expect(evaluate('$steps.token.outputs.accessToken', context)).toBe('abc');
    expect(evaluate('$steps.token.outputs.user#/id', context)).toBe('u-9');
    expect(evaluate('$workflows.setup.outputs.destinationId', context)).toBe('d-1');
    expect(evaluate('$outputs.payoutId', context)).toBe('p-1');
  });

  it('read the answer: status, a header by any case, the body by JSON pointer', () => {
    expect(evaluate('$statusCode', context)).toBe(201);
    expect(evaluate('$response.header.X-Request-ID', context)).toBe('r-7');
    expect(evaluate('$response.body#/status', context)).toBe('PENDING');
    expect(evaluate('$response.body#/items/0/id', context)).toBe('first');
    expect(evaluate('$response.body#/a~1b', context)).toBe(1);
    expect(evaluate('$response.body#/m~0n', context)).toBe(2);
    expect(evaluate('$response.body#/missing/deeper', context)).toBeUndefined();
    expect(evaluate('$response.body', context)).toEqual(context.response!.body);
    expect(evaluate('$request.path.user_id', context)).toBe('u-1');
    expect(evaluate('$method', context)).toBe('POST');
  });

  it('say what is wrong with an expression that names nothing', () => {
    expect(() => evaluate('$steps.later.outputs.x', context)).toThrow('no step "later" has run yet');
    expect(() => evaluate('$somewhere.x', context)).toThrow(ExpressionError);
    expect(() => evaluate('$response.body#id', context)).toThrow('is not a JSON pointer');
    expect(() => evaluate('$response.body', { inputs: {}, steps: {} })).toThrow('before there is a response');
  });

  it('resolve values: a whole expression keeps its type, embedded ones become text, objects are walked', () => {
    expect(
      resolveValue(
        { amount: '$inputs.amount', auth: 'Bearer {$steps.token.outputs.accessToken}', list: ['$inputs.userId', 3] },
        context,
      ),
    ).toEqual({ amount: 150000, auth: 'Bearer abc', list: ['u-1', 3] });
    expect(resolveValue('COP', context)).toBe('COP');
    expect(resolveValue('journey-{$inputs.userId}-a', context)).toBe('journey-u-1-a');
    expect(() => resolveValue('$faker.string.uuid()', context)).toThrow(/not a runtime expression/);
  });

  it('read a JSON pointer into arrays and objects', () => {
    expect(atPointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(atPointer('text', '/a')).toBeUndefined();
  });
});

describe('success criteria conditions', () => {
  it.each([
    ['$statusCode == 201', true],
    ['$statusCode == 200', false],
    ["$response.body#/status == 'PENDING'", true],
    ["$response.body#/status != 'PENDING'", false],
    ['$statusCode >= 200 && $statusCode < 300', true],
    ['$statusCode < 200 || $statusCode >= 300', false],
    ["!($response.body#/status == 'REJECTED')", true],
    ['$response.body#/missing == null', false],
    ["$response.header.x-request-id == 'r-7'", true],
    ['$inputs.amount > 1000', true],
    ["'it''s' == 'it''s'", true],
    ['$statusCode == 201 && ($inputs.amount == 1 || true)', true],
  ])('%s is %s', (text, expected) => {
    expect(condition(text, context)).toBe(expected);
  });

  it('compare a number with its text, as a header carries it', () => {
    expect(condition('$response.header.x-count == 3', { ...context, response: { headers: { 'x-count': '3' } } })).toBe(
      true,
    );
  });

  it('name what cannot be read', () => {
    expect(() => condition('$statusCode ==', context)).toThrow('ends too early');
    expect(() => condition('($statusCode == 201', context)).toThrow('misses a ")"');
    expect(() => condition('$statusCode == 201 201', context)).toThrow('has more after its end');
    expect(() => condition('$statusCode ~ 1', context)).toThrow('cannot be read at "~ 1"');
  });
});
