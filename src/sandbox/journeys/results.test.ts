import { describe, expect, it } from 'vitest';
import { fromRespectJson } from './results.js';

const step = (stepId: string, passed: boolean, ms: number) => ({
  type: 'step',
  stepId,
  workflowId: 'onRampPaid',
  request: { body: { clientSecret: 'never copied' } },
  response: { statusCode: 200, body: {} },
  checks: [
    {
      name: 'success criteria check',
      passed,
      severity: 'error',
      condition: "$response.body#/status == 'delivered'",
      message: 'm',
    },
    { name: 'schema check', passed: false, severity: 'warn', message: 'a warning does not fail' },
  ],
  totalTimeMs: ms,
  status: passed ? 'success' : 'error',
});

describe("respect's JSON output as results", () => {
  it('keeps one result per step: a step its retry action sent again ends as its last attempt', () => {
    const json = {
      files: {
        'openapi/workflows/on-ramp.arazzo.yaml': {
          executedWorkflows: [
            {
              type: 'workflow',
              workflowId: 'onRampPaid',
              status: 'success',
              totalTimeMs: 900,
              executedSteps: [
                { type: 'workflow', stepId: 'ready', executedSteps: [step('v1Token', true, 10)] },
                step('delivered', false, 100),
                step('delivered', false, 100),
                step('delivered', true, 50),
              ],
            },
          ],
        },
      },
    };
    const [workflow] = fromRespectJson(json);
    expect(workflow).toMatchObject({
      file: 'on-ramp.arazzo.yaml',
      workflowId: 'onRampPaid',
      status: 'passed',
      ms: 900,
    });
    expect(workflow!.steps).toEqual([
      {
        step: 'ready / v1Token',
        workflowId: 'onRampPaid',
        status: 'passed',
        ms: 10,
        attempts: 1,
        httpStatus: 200,
        failed: [],
      },
      {
        step: 'delivered',
        workflowId: 'onRampPaid',
        status: 'passed',
        ms: 250,
        attempts: 3,
        httpStatus: 200,
        failed: [],
      },
    ]);
    expect(JSON.stringify(workflow)).not.toContain('never copied');
  });

  it('fails a workflow respect failed, with the failed criterion of its last step', () => {
    const json = {
      files: {
        'x.arazzo.yaml': {
          executedWorkflows: [{ workflowId: 'w', status: 'error', executedSteps: [step('delivered', false, 5)] }],
        },
      },
    };
    const [workflow] = fromRespectJson(json);
    expect(workflow!.status).toBe('failed');
    expect(workflow!.steps[0]!.failed).toEqual([
      { check: 'success criteria check', condition: "$response.body#/status == 'delivered'", message: 'm' },
    ]);
  });
});

describe('the start and the messages of each workflow', () => {
  const workflow = (workflowId: string, totalTimeMs: number, message: string) => ({
    workflowId,
    status: 'error',
    totalTimeMs,
    executedSteps: [
      {
        type: 'step',
        stepId: 'pay',
        workflowId,
        status: 'error',
        totalTimeMs,
        checks: [{ name: 'schema check', passed: false, severity: 'error', message }],
      },
    ],
  });
  const json = {
    files: {
      'a.arazzo.yaml': { executedWorkflows: [workflow('one', 1500, '\u001b[31mENUM\u001b[0m\nmust be one of')] },
      'b.arazzo.yaml': { executedWorkflows: [workflow('two', 200, 'plain')] },
    },
  };

  it('starts each workflow when the ones before it in the process ended', () => {
    const workflows = fromRespectJson(json, new Date('2026-11-28T10:00:00.000Z'));
    expect(workflows.map((w) => w.startedAt)).toEqual(['2026-11-28T10:00:00.000Z', '2026-11-28T10:00:01.500Z']);
  });

  it('keeps no terminal escape code in a message', () => {
    const [one] = fromRespectJson(json, new Date(0));
    expect(one!.steps[0]!.failed[0]!.message).toBe('ENUM\nmust be one of');
  });
});
