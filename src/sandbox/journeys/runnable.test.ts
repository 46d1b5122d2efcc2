// The journeys a runner starts, read from the model: only the workflows that take a tenant's inputs, each with the
// operations it makes in order (a building block of another file, named through its source description, flattened
// in with the values the calling step gives), and whether it uses the service's own API alone.
import { describe, expect, it } from 'vitest';
import type { ArazzoFile } from './arazzo.js';
import { parseArazzo } from './arazzo-files.js';
import { journeys } from './runnable.js';

const arazzoFile = (name: string, doc: Record<string, unknown>): ArazzoFile => ({
  file: `/workflows/${name}`,
  name,
  doc: parseArazzo(name, JSON.stringify({ arazzo: '1.0.1', info: { title: name, version: '1' }, ...doc })),
});

const tenant = { $ref: '#/components/inputs/tenant' };
const common = arazzoFile('common.arazzo.yaml', {
  sourceDescriptions: [{ name: 'v1', url: '../v1/openapi.yaml', type: 'openapi' }],
  workflows: [
    {
      workflowId: 'registerUser',
      inputs: { properties: { result: { default: 'Success' }, token: {} } },
      steps: [{ stepId: 'register', operationId: '$sourceDescriptions.v1.registerUser' }],
    },
  ],
});
const onboarding = arazzoFile('onboarding.arazzo.yaml', {
  sourceDescriptions: [
    { name: 'v1', url: '../v1/openapi.yaml', type: 'openapi' },
    { name: 'sandbox', url: '../sandbox/openapi.yaml', type: 'openapi' },
    { name: 'common', url: './common.arazzo.yaml', type: 'arazzo' },
  ],
  workflows: [
    {
      workflowId: 'onboarding',
      inputs: tenant,
      steps: [
        {
          stepId: 'user',
          workflowId: '$sourceDescriptions.common.registerUser',
          parameters: [{ name: 'token', value: '$inputs.clientId' }],
        },
        { stepId: 'list', operationId: '$sourceDescriptions.v1.listClientUsers' },
      ],
    },
    {
      workflowId: 'approved',
      inputs: tenant,
      steps: [
        { stepId: 'user', workflowId: '$sourceDescriptions.common.registerUser' },
        { stepId: 'approve', operationId: '$sourceDescriptions.sandbox.approveUser' },
      ],
    },
    { workflowId: 'block', steps: [{ stepId: 'list', operationId: '$sourceDescriptions.v1.listClientUsers' }] },
  ],
  components: { inputs: { tenant: { properties: { clientId: { type: 'string' } } } } },
});

describe('journeys', () => {
  const found = journeys([common, onboarding]);

  it('are the workflows that take the tenant, in file order', () => {
    expect(found.map((j) => [j.file.name, j.workflow.workflowId, j.kind])).toEqual([
      ['onboarding.arazzo.yaml', 'onboarding', 'service'],
      ['onboarding.arazzo.yaml', 'approved', 'sandbox'],
    ]);
  });

  it('flatten a building block of another file, with the literal values it gets', () => {
    expect(found[0]!.steps.map((s) => [s.file, s.workflowId, s.source, s.operationId, s.inputs])).toEqual([
      ['common.arazzo.yaml', 'registerUser', 'v1', 'registerUser', { result: 'Success' }],
      ['onboarding.arazzo.yaml', 'onboarding', 'v1', 'listClientUsers', {}],
    ]);
  });

  it('name a step whose operation names no source, or whose workflow is nowhere', () => {
    const bare = arazzoFile('bare.arazzo.yaml', {
      sourceDescriptions: [],
      workflows: [{ workflowId: 'bare', inputs: tenant, steps: [{ stepId: 'list', operationId: 'listBanks' }] }],
    });
    expect(() => journeys([bare])).toThrow('bare.arazzo.yaml bare.list: name the source');
    const lost = arazzoFile('lost.arazzo.yaml', {
      sourceDescriptions: [],
      workflows: [{ workflowId: 'lost', inputs: tenant, steps: [{ stepId: 'call', workflowId: 'nowhere' }] }],
    });
    expect(() => journeys([lost])).toThrow('lost.arazzo.yaml lost.call: no nowhere');
  });
});
