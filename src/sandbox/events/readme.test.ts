// The README's events example runs as written: the receiver gets fiat.payout.completed after completePayout,
// and a failed delivery is retried, then replayed with redeliver.
import { expect, it } from 'vitest';
import { runReadmeBlock } from '../../testing/readme-block.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';

const sandbox = useSandbox();

it('README events example: received, retried, replayed', async () => {
  const stdout = await runReadmeBlock('sandbox-events', { SANDBOX_URL: sandbox.url });
  expect(stdout.split('\n')).toEqual(['received fiat.payout.completed COMPLETED', '1:500 2:500 3:200']);
}, 30_000);
