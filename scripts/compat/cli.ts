// The options `--consumers DIR` and `--fail-on any|consumers|seen` of `npm run compat`: the gate's report with the
// consuming teams' usage files, and its exit status (0, 1 for a breaking change the policy fails on, 2 for bad
// input such as a malformed usage file).
import { parseArgs } from 'node:util';
import { oneLine, UsageError } from '../../src/client/usage/errors.js';
import type { Change } from '../../src/client/usage/rules.js';
import { type ApiFamily, readBundle } from '../openapi/apis.js';
import { consumerGate, FAIL_ON, type FailOn, readConsumers } from './consumers.js';

export async function gateWithConsumers(
  args: string[],
  results: { api: string; changes: Change[] }[],
  apis: ApiFamily[],
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      consumers: { type: 'string' },
      'fail-on': { type: 'string', default: 'any' },
      accept: { type: 'boolean' },
    },
  });
  const failOn = values['fail-on'] as FailOn;
  if (!FAIL_ON.includes(failOn)) {
    console.error(`UsageError: --fail-on takes ${FAIL_ON.join(', ')}, not ${failOn}.`);
    return 2;
  }
  try {
    const usages = await readConsumers(values.consumers!);
    const current = new Map(apis.map((api) => [api.name, readBundle(api)]));
    const gate = consumerGate(
      results.map((r) => ({ ...r, current: current.get(r.api)! })),
      usages,
      failOn,
    );
    console.log(gate.text);
    if (gate.failing) console.error(`\n${gate.failing} breaking change(s) fail the gate (--fail-on ${failOn}).`);
    return gate.failing ? 1 : 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(oneLine(error));
    return 2;
  }
}
