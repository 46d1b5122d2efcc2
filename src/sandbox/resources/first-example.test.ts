// The README's first example runs as written against the sandbox that `npm start` serves.
import { describe, expect, it } from 'vitest';
import { runReadmeBlock } from '../../testing/readme-block.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';

const sandbox = useSandbox();

describe('README', () => {
  it('first example: reads by operationId and by path, and a refused payout as an ApiError', async () => {
    const stdout = await runReadmeBlock('readme-first-example', { SANDBOX_URL: sandbox.url });
    expect(stdout.split('\n')).toEqual(['createPayout 403', 'true 0 0 undefined 200']);
  }, 30_000);
});
