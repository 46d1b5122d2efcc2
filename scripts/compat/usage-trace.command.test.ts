// Soundness proven against the example consumers' own runs: each consumer's tests (contract-tests/consumers/<name>/
// test/) run with every answer and event payload traced (src/testing/usage-trace.ts), and every property read its
// own code made must be covered by its static usage file (listed for that operation or event, or under a `whole`
// mark). A failure lists each read the usage file missed: consumer, operation or event, status, pointer and site.
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UsageFile } from '../../src/client/usage/format.js';
import { EXAMPLE_CONSUMERS, exampleConsumerUsages } from '../../src/testing/usage-project.js';
import { describeRead, traceConsumer, uncoveredReads } from '../../src/testing/usage-trace-run.js';

let usages: UsageFile[];
beforeAll(async () => {
  usages = await exampleConsumerUsages();
}, 120_000);

describe('every read an example consumer makes in its tests is in its usage file', () => {
  it.each(readdirSync(EXAMPLE_CONSUMERS).sort())(
    '%s',
    async (name) => {
      const reads = await traceConsumer(name);
      expect(reads.length, `the tests of ${name} traced no read`).toBeGreaterThan(0);
      const usage = usages.find((u) => u.consumer === name)!;
      const missed = uncoveredReads(reads, usage).map(describeRead);
      expect(
        missed,
        `reads of ${name} its usage file does not cover (consumer, operation, status, pointer, site)`,
      ).toEqual([]);
    },
    180_000,
  );
});
