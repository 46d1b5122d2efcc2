// A run of a small fixture workflow against a transport that answers as a sandbox would: outputs carried into
// later steps, a sub-workflow's outputs given to the step that ran it, the Authorization header's token, success criteria,
// a retry, a changed call, and the reasons a run stops.
import { describe, expect, it } from 'vitest';
import { type ArazzoDocument, type Library, plannedCalls, stepReferences } from '../../sandbox/journeys/arazzo.js';
import { type PreparedCall, type StepAnswer, startRun } from './run.js';

const FILE = 'fixture.arazzo.yaml';
/** The fixture as the only file of a library, its source descriptions naming the v1 API and the control API. */
const library = (document: ArazzoDocument, more: Library['files'] = {}): Library => ({
  files: {
    [FILE]: { document, families: { v1: 'v1', control: 'sandbox' }, workflows: { blocks: 'blocks.arazzo.yaml' } },
    ...more,
  },
  operations: { v1: ['createClientToken', 'registerUser', 'createPayout'], sandbox: ['approveUser', 'listEvents'] },
});

const fixture: ArazzoDocument = {
  arazzo: '1.0.1',
  info: { title: 'Fixture', version: '1.0.0' },
  sourceDescriptions: [
    { name: 'v1', url: '../v1/openapi.yaml', type: 'openapi' },
    { name: 'control', url: '../sandbox/openapi.yaml', type: 'openapi' },
  ],
  workflows: [
    {
      workflowId: 'onboard',
      inputs: { properties: { token: { type: 'string' }, name: { type: 'string', default: 'Ana' } } },
      steps: [
        {
          stepId: 'register',
          operationId: '$sourceDescriptions.v1.registerUser',
          parameters: [{ name: 'Authorization', in: 'header', value: 'Bearer {$inputs.token}' }],
          requestBody: { payload: { first_name: '$inputs.name', external_user_id: 'fixed' } },
          successCriteria: [{ condition: '$statusCode == 201' }],
          outputs: { userId: '$response.body#/user_id' },
        },
        {
          stepId: 'approve',
          operationId: 'approveUser',
          parameters: [{ name: 'userId', in: 'path', value: '$steps.register.outputs.userId' }],
          successCriteria: [{ condition: '$statusCode == 200' }],
        },
      ],
      outputs: { userId: '$steps.register.outputs.userId' },
    },
    {
      workflowId: 'payout',
      inputs: { properties: { credentials: { type: 'object' }, amount: { type: 'number', default: 150000 } } },
      steps: [
        {
          stepId: 'token',
          operationId: '$sourceDescriptions.v1.createClientToken',
          requestBody: { payload: '$inputs.credentials' },
          successCriteria: [{ condition: '$statusCode == 200' }],
          outputs: { accessToken: '$response.body#/access_token' },
        },
        {
          stepId: 'user',
          workflowId: 'onboard',
          parameters: [{ name: 'token', value: '$steps.token.outputs.accessToken' }],
          outputs: { userId: '$outputs.userId' },
        },
        {
          stepId: 'pay',
          operationId: '$sourceDescriptions.v1.createPayout',
          parameters: [
            { name: 'Authorization', in: 'header', value: 'Bearer {$steps.token.outputs.accessToken}' },
            { name: 'user_id', in: 'path', value: '$steps.user.outputs.userId' },
          ],
          requestBody: { payload: { amount: '$inputs.amount', currency: 'COP' } },
          successCriteria: [{ condition: '$statusCode == 201' }, { condition: "$response.body#/status == 'PENDING'" }],
          onFailure: [{ name: 'again', type: 'retry', retryAfter: 0.5, retryLimit: 1 }],
          outputs: { payoutId: '$response.body#/id' },
        },
      ],
      outputs: { payoutId: '$steps.pay.outputs.payoutId', userId: '$steps.user.outputs.userId' },
    },
  ],
};

const ok = (status: number, body: unknown): StepAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  bodyText: JSON.stringify(body),
  problems: [],
});

/** Answers each operation as the sandbox would; `payoutAnswers` in turn for createPayout. */
function sandbox(payoutAnswers: StepAnswer[]) {
  const calls: PreparedCall[] = [];
  const transport = async (call: PreparedCall) => {
    calls.push(structuredClone(call));
    if (call.operationId === 'createClientToken') return ok(200, { access_token: 'tok-1' });
    if (call.operationId === 'registerUser') return ok(201, { user_id: 'u-1' });
    if (call.operationId === 'approveUser') return ok(200, { id: call.path.userId, status: 'APPROVED' });
    return payoutAnswers.shift()!;
  };
  return { calls, transport };
}

async function runToEnd(run: ReturnType<typeof startRun>, transport: (c: PreparedCall) => Promise<StepAnswer>) {
  for (let call = run.prepare(); call; call = run.prepare()) await run.send(call, transport);
}

describe('a journey run', () => {
  it('carries each output into the later steps, through a sub-workflow, to the workflow outputs', async () => {
    const { calls, transport } = sandbox([ok(201, { id: 'p-1', status: 'PENDING' })]);
    const run = startRun({
      library: library(fixture),
      file: FILE,
      workflowId: 'payout',
      inputs: { credentials: { clientId: 'c' } },
      freshen: (op, body) =>
        op.operationId === 'registerUser' ? { ...(body as object), external_user_id: 'fresh' } : body,
    });
    await runToEnd(run, transport);
    expect(run.state.failed).toBeUndefined();
    expect(run.state.done).toBe(true);
    expect(run.state.outputs).toEqual({ payoutId: 'p-1', userId: 'u-1' });
    expect(calls.map((c) => [c.family, c.operationId, c.stepPath.join('/')])).toEqual([
      ['v1', 'createClientToken', 'token'],
      ['v1', 'registerUser', 'user/register'],
      ['sandbox', 'approveUser', 'user/approve'],
      ['v1', 'createPayout', 'pay'],
    ]);
    expect(calls[0]!.body).toEqual({ clientId: 'c' });
    // The Authorization parameter becomes the call's token, not a header the client would send twice.
    expect(calls[1]).toMatchObject({
      token: 'tok-1',
      header: {},
      body: { first_name: 'Ana', external_user_id: 'fresh' },
    });
    expect(calls[2]!.path).toEqual({ userId: 'u-1' });
    expect(calls[3]).toMatchObject({
      token: 'tok-1',
      path: { user_id: 'u-1' },
      body: { amount: 150000, currency: 'COP' },
    });
  });

  it('retries a failed step as its onFailure says, waiting retryAfter, then goes on', async () => {
    const { calls, transport } = sandbox([
      ok(201, { id: 'p-0', status: 'REJECTED' }),
      ok(201, { id: 'p-2', status: 'PENDING' }),
    ]);
    const run = startRun({ library: library(fixture), file: FILE, workflowId: 'payout', inputs: { credentials: {} } });
    const waits: number[] = [];
    for (let call = run.prepare(); call; call = run.prepare()) waits.push((await run.send(call, transport)).waitMs);
    expect(waits).toEqual([0, 0, 0, 500, 0]);
    expect(calls.filter((c) => c.operationId === 'createPayout')).toHaveLength(2);
    expect(run.state.outputs?.payoutId).toBe('p-2');
  });

  it('stops at a step whose criteria fail, saying which, once its retries are spent', async () => {
    const rejected = ok(201, { id: 'p-0', status: 'REJECTED' });
    const { transport } = sandbox([rejected, rejected]);
    const run = startRun({ library: library(fixture), file: FILE, workflowId: 'payout', inputs: { credentials: {} } });
    await runToEnd(run, transport);
    expect(run.state.done).toBe(false);
    expect(run.state.failed).toBe("Step pay (createPayout) failed: $response.body#/status == 'PENDING' does not hold");
  });

  it('fails a step whose answer breaks the description, as the console checks it', async () => {
    const { transport } = sandbox([{ ...ok(201, { id: 'p-1', status: 'PENDING' }), problems: ['/id must be string'] }]);
    const run = startRun({
      library: library({
        ...fixture,
        workflows: fixture.workflows.map((w) => ({ ...w, steps: w.steps.map((s) => ({ ...s, onFailure: [] })) })),
      }),
      file: FILE,
      workflowId: 'payout',
      inputs: { credentials: {} },
    });
    await runToEnd(run, transport);
    expect(run.state.failed).toContain('the answer breaks the description: /id must be string');
  });

  it('sends the call as the reader changed it, and later steps read the answer to that', async () => {
    const { calls, transport } = sandbox([ok(201, { id: 'p-1', status: 'PENDING' })]);
    const run = startRun({ library: library(fixture), file: FILE, workflowId: 'payout', inputs: { credentials: {} } });
    for (let call = run.prepare(); call; call = run.prepare()) {
      if (call.operationId === 'createPayout') call.body = { amount: 5, currency: 'COP' };
      await run.send(call, transport);
    }
    expect(calls.at(-1)!.body).toEqual({ amount: 5, currency: 'COP' });
    expect(run.state.done).toBe(true);
  });

  it('holds a JSONPath criterion when its query, with an output put in as JSON, finds something', async () => {
    const document: ArazzoDocument = {
      ...fixture,
      workflows: [
        {
          workflowId: 'w',
          steps: [
            { stepId: 'register', operationId: 'registerUser', outputs: { userId: '$response.body#/user_id' } },
            {
              stepId: 'check',
              operationId: 'createPayout',
              successCriteria: [
                {
                  context: '$response.body',
                  type: 'jsonpath',
                  condition: "$.payouts[?(@.userId == {$steps.register.outputs.userId} && @.status == 'REJECTED')]",
                },
              ],
            },
          ],
        },
      ],
    };
    const list = ok(200, {
      payouts: [
        { userId: 'u-0', status: 'REJECTED' },
        { userId: 'u-1', status: 'REJECTED' },
      ],
    });
    const { transport } = sandbox([list, list]);
    const run = startRun({ library: library(document), file: FILE, workflowId: 'w', inputs: {} });
    await runToEnd(run, transport);
    expect(run.state.done).toBe(true);
    const failing = structuredClone(document);
    failing.workflows[0]!.steps[1]!.successCriteria![0]!.condition = "$.payouts[?(@.status == 'COMPLETED')]";
    const second = startRun({ library: library(failing), file: FILE, workflowId: 'w', inputs: {} });
    await runToEnd(second, transport);
    expect(second.state.failed).toBe(
      "Step check (createPayout) failed: $.payouts[?(@.status == 'COMPLETED')] does not hold",
    );
  });

  it("runs a workflow of another Arazzo file, with inputs from its document's components", async () => {
    const blocks: ArazzoDocument = { ...fixture, workflows: [fixture.workflows[0]!] };
    const main: ArazzoDocument = {
      ...fixture,
      components: { inputs: { tenant: { properties: { token: { type: 'string', default: 'tok-9' } } } } },
      workflows: [
        {
          workflowId: 'journey',
          inputs: { $ref: '#/components/inputs/tenant' },
          steps: [
            {
              stepId: 'someone',
              workflowId: '$sourceDescriptions.blocks.onboard',
              parameters: [{ name: 'token', value: '$inputs.token' }],
              outputs: { userId: '$outputs.userId' },
            },
          ],
          outputs: { userId: '$steps.someone.outputs.userId' },
        },
      ],
    };
    const { calls, transport } = sandbox([]);
    const files = {
      'blocks.arazzo.yaml': { document: blocks, families: { v1: 'v1', control: 'sandbox' }, workflows: {} },
    };
    const run = startRun({ library: library(main, files), file: FILE, workflowId: 'journey', inputs: {} });
    await runToEnd(run, transport);
    expect(run.state.outputs).toEqual({ userId: 'u-1' });
    expect(calls.map((c) => [c.stepPath.join('/'), c.token])).toEqual([
      ['someone/register', 'tok-9'],
      ['someone/approve', undefined],
    ]);
  });

  it('names an expression that reads a step that has not run', () => {
    const broken: ArazzoDocument = {
      ...fixture,
      workflows: [{ workflowId: 'w', steps: [{ ...fixture.workflows[0]!.steps[1]!, stepId: 'approve' }] }],
    };
    const run = startRun({ library: library(broken), file: FILE, workflowId: 'w', inputs: {} });
    expect(run.prepare()).toBeUndefined();
    expect(run.state.failed).toBe('Step approve: $steps.register.outputs.userId: no step "register" has run yet.');
  });
});

describe('a workflow read for its page', () => {
  it('lists its calls in order, sub-workflows expanded, each with its family', () => {
    const calls = plannedCalls(library(fixture), { file: FILE, workflow: fixture.workflows[1]! });
    expect(calls.map((c) => `${c.path.join('/')} ${c.family}.${c.operationId}`)).toEqual([
      'token v1.createClientToken',
      'user/register v1.registerUser',
      'user/approve sandbox.approveUser',
      'pay v1.createPayout',
    ]);
  });

  it('finds the outputs of earlier steps a step reads', () => {
    expect(stepReferences(fixture.workflows[1]!.steps[2])).toEqual([
      { stepId: 'token', output: 'accessToken' },
      { stepId: 'user', output: 'userId' },
    ]);
  });

  it('refuses an operation no source description holds, and one two hold without a name', () => {
    const run = startRun({
      library: library({
        ...fixture,
        workflows: [{ workflowId: 'w', steps: [{ stepId: 's', operationId: 'deleteAll' }] }],
      }),
      file: FILE,
      workflowId: 'w',
      inputs: {},
    });
    expect(run.prepare()).toBeUndefined();
    expect(run.state.failed).toBe('Step s: deleteAll is in no description; name its source description.');
  });
});
