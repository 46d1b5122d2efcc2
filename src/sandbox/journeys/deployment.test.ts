// A deployment's settings for the journeys: the base addresses from --base-url / --v1-base-url or the environment,
// and every missing or malformed setting refused by its name, never with its value.
import { describe, expect, it } from 'vitest';
import { UsageError } from './command-output.js';
import { deploymentInputs, deploymentServers } from './deployment.js';

const env = {
  BUSINESS_API_URL: 'https://business.example.test/',
  V1_API_URL: 'https://v1.example.test',
  BUSINESS_API_CREDENTIALS: '{"clientId":"b","clientSecret":"s3cret-b"}',
  V1_API_CREDENTIALS: '{"clientId":"v","clientSecret":"s3cret-v"}',
  CONTRACT_PARAMS: '{"clientId":"c-1","x-integration-register":"reg"}',
  CONTRACT_ALLOW_WRITES: '1',
  JOURNEYS_RECEIVER_URL: 'https://hooks.example.test/j',
};

describe("a deployment's base addresses", () => {
  it('come from --base-url for both families, --v1-base-url for the v1 API, else the environment', () => {
    expect(deploymentServers(env, { baseUrl: 'https://api.example.test' })).toEqual({
      business: 'https://api.example.test',
      v1: 'https://api.example.test',
    });
    expect(deploymentServers(env, { baseUrl: 'https://a.test', v1BaseUrl: 'https://b.test/' })).toEqual({
      business: 'https://a.test',
      v1: 'https://b.test',
    });
    expect(deploymentServers(env, {})).toEqual({
      business: 'https://business.example.test',
      v1: 'https://v1.example.test',
    });
    expect(() => deploymentServers({}, {})).toThrow('needs BUSINESS_API_URL');
  });
});

describe("a deployment's inputs", () => {
  it('are read from the environment, each run with a new run ID', () => {
    const inputs = deploymentInputs(env);
    expect(inputs).toMatchObject({
      clientId: 'c-1',
      integrationRegister: 'reg',
      businessCredentials: { clientId: 'b' },
      receiverUrl: 'https://hooks.example.test/j',
    });
    expect(inputs.runId).toMatch(/^[0-9a-f]{8}$/);
  });

  it.each([
    ['CONTRACT_ALLOW_WRITES', '', 'set CONTRACT_ALLOW_WRITES=1'],
    ['CONTRACT_PARAMS', '{"clientId":"c-1"}', "CONTRACT_PARAMS's x-integration-register"],
    ['CONTRACT_PARAMS', '["c-1"]', 'CONTRACT_PARAMS must be a JSON object'],
    ['V1_API_CREDENTIALS', '{s3cret', 'V1_API_CREDENTIALS must be the JSON body of the token call'],
    ['JOURNEYS_RECEIVER_URL', '', 'needs JOURNEYS_RECEIVER_URL'],
  ])('without a good %s (%j), are refused by name', (name, value, message) => {
    const read = () => deploymentInputs({ ...env, [name]: value });
    expect(read).toThrow(UsageError);
    expect(read).toThrow(message);
    try {
      read();
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });
});
