// Soundness proven against the example consumers' own runs. Each consumer's tests (contract-tests/consumers/<name>/
// test/) run with every answer and event payload traced (src/testing/usage-trace.ts), then:
// - every property read the consumer's own code made must be covered by its static usage file (listed for that
//   operation or event, or under a `whole` mark); a failure lists each read missed: consumer, operation or event,
//   status, pointer and site;
// - recall: for every field a trace saw read, the breaking change to it (removed, or a value added to its enum) in
//   a copy of the bundle must make the gate name that consumer: 100%;
// - precision: for every field of the families' answers and payloads no trace read (all of them, at least 50),
//   the same change should make the gate say `no known consumer`, for 95% of them or more.
// Fields the bundles do not declare (of open objects) cannot be changed, and a change the rules do not find
// breaking (a field an `allOf`'s other part still declares) names nobody: both are listed, and counted in neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageFile } from '../../src/client/usage/usage-file.js';
import { gateVerdict, responseFields } from '../../src/testing/usage-mutations.js';
import { exampleConsumerNames, exampleConsumerUsages } from '../../src/testing/usage-project.js';
import type { TracedRead } from '../../src/testing/usage-trace.js';
import { describeRead, traceConsumer, uncoveredReads } from '../../src/testing/usage-trace-run.js';

const CONSUMERS = exampleConsumerNames();
let usages: UsageFile[];
const traces = new Map<string, TracedRead[]>();

// A consumer's test run still going when this file ends (a timed-out hook, a failure) is stopped with it.
const runs = new AbortController();
beforeAll(async () => {
  usages = await exampleConsumerUsages();
  for (const name of CONSUMERS) traces.set(name, await traceConsumer(name, runs.signal));
}, 600_000);
afterAll(() => runs.abort());

describe('every read an example consumer makes in its tests is in its usage file', () => {
  it.each(CONSUMERS)('%s', (name) => {
    const reads = traces.get(name)!;
    expect(reads.length, `the tests of ${name} traced no read`).toBeGreaterThan(0);
    const usage = usages.find((u) => u.consumer === name)!;
    const missed = uncoveredReads(reads, usage).map(describeRead);
    expect(
      missed,
      `reads of ${name} its usage file does not cover (consumer, operation, status, pointer, site)`,
    ).toEqual([]);
  });
});

/** Each field some trace read (by its declarations, `family pointer...`), with the consumers that read it. */
function readFields(): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  for (const read of [...traces.values()].flat()) {
    const key = [read.family, ...read.declarations].join(' ');
    fields.set(key, (fields.get(key) ?? new Set()).add(read.consumer));
  }
  return fields;
}

const percent = (part: number, whole: number) => `${part}/${whole} = ${((100 * part) / whole).toFixed(1)}%`;

describe('the gate on breaking changes to fields', () => {
  it('names the consumer for every field its trace saw read (recall)', () => {
    const missed: string[] = [];
    const skipped: string[] = [];
    let total = 0;
    for (const [key, readers] of readFields()) {
      const [family, ...declarations] = key.split(' ') as [string, ...string[]];
      const verdict = gateVerdict(family, declarations, usages);
      const who = [...readers].join(', ');
      if (!verdict.breaking) {
        skipped.push(
          `${family} ${verdict.pointer} (${who}): ${verdict.change ? 'no breaking change' : 'not declared'}`,
        );
        continue;
      }
      for (const consumer of readers) {
        total++;
        if (!verdict.named.includes(consumer))
          missed.push(`${consumer}  ${family}  ${verdict.pointer}  ${verdict.change}`);
      }
    }
    const recall = percent(total - missed.length, total);
    console.log(`Recall: ${recall}. Read fields with nothing to break: ${skipped.length}\n  ${skipped.join('\n  ')}`);
    expect(missed, `recall ${recall}: the gate did not name (consumer, family, field, change)`).toEqual([]);
  });

  it('says `no known consumer` for the fields no trace read (precision)', () => {
    const read = new Set([...readFields().keys()].flatMap((key) => key.split(' ').slice(1)));
    const verdicts = ['business', 'v1'].flatMap((family) =>
      responseFields(family)
        .filter((pointer) => !read.has(pointer))
        .map((pointer) => gateVerdict(family, [pointer], usages))
        .filter((v) => v.breaking),
    );
    const named = verdicts.filter((v) => v.named.length > 0).map((v) => `${v.family} ${v.pointer} -> ${v.named}`);
    const precision = percent(verdicts.length - named.length, verdicts.length);
    console.log(`Precision: ${precision}. Named anyway:\n  ${named.join('\n  ')}`);
    expect(verdicts.length).toBeGreaterThanOrEqual(50);
    expect(
      (verdicts.length - named.length) / verdicts.length,
      `precision ${precision}; named anyway: ${named.join('; ')}`,
    ).toBeGreaterThanOrEqual(0.95);
  });
});
