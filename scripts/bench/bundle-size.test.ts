// The client's cost in a consumer's bundle is held to a budget that only goes down.
import { describe, expect, it } from 'vitest';
import { BUDGETED_IMPORT, bundleSize, readBudget } from './bundle-size.js';

describe('bundle size budget (scripts/bench/size-budget.json)', () => {
  it('createBusinessClient from the root entry stays within the recorded budget, and the budget follows it down', async () => {
    const budget = readBudget();
    expect(budget.import).toBe(BUDGETED_IMPORT);
    expect(budget.gzippedBytes, `the ${budget.targetBytes} B target`).toBeLessThanOrEqual(budget.targetBytes);
    const { gzipped } = await bundleSize(BUDGETED_IMPORT);
    expect(gzipped, `grew past the budget of ${budget.gzippedBytes} B`).toBeLessThanOrEqual(budget.gzippedBytes);
    expect(gzipped, `shrank below the budget: record it with \`npm run size -- --write\``).toBe(budget.gzippedBytes);
  });
});
