// How `npm run bench` compares the variants' cost per call on the harness: rounds of TURNS interleaved turns, the
// ratio to the reference taken inside each round, the bench's own garbage collection pauses taken out of each call
// and counted back at the rate each variant met them.
import { PerformanceObserver } from 'node:perf_hooks';
import type { Call } from './client-calls.js';
import { type Contender, compare, percentile, type Summary, summarize, takeTurns } from './harness.js';

export interface Row {
  section: string;
  name: string;
  /** The section's reference, which every other row is divided by. */
  reference: boolean;
  /** Microseconds per call (see `compareCalls`): median, 10th and 90th percentile over the rounds. */
  us: Summary;
  /** Microseconds of the bench's garbage collection pauses per call, over all rounds. */
  gcUs: number;
  /** The share of calls a garbage collection pause fell in. */
  gcCalls: number;
  /** Ratio to the section's reference, taken inside each round. */
  ratio: Summary;
  /** The plain per-round ratio: every call as it fell, pauses included where they fell. */
  ratioAll: Summary;
  /** Of the calls no pause fell in: the share taking over 4 times their median, and the share of their time they hold. */
  stalls: { calls: number; time: number };
}

/** The turns each variant's calls of a round are spread over. */
export const TURNS = 40;
/** The share of each variant's slowest calls in a round, garbage collection taken out, that its mean leaves out. */
export const TRIM = 0.01;

interface Span {
  start: number;
  end: number;
}
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Mean of `samples`, without the slowest `trim` share of them (at least one, when `trim` is above 0). */
function trimmedMean(samples: number[], trim: number): number {
  const kept = [...samples].sort((a, b) => a - b).slice(0, samples.length - Math.ceil(samples.length * trim));
  return sum(kept) / kept.length;
}

/** The bench's own garbage collection pauses (performance.now() ms), as Node reports them from now on. */
export function watchPauses() {
  const pauses: Span[] = [];
  const take = (entries: PerformanceEntry[]) => {
    for (const entry of entries) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  };
  const observer = new PerformanceObserver((list) => take(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    /** Milliseconds of pause inside each of `spans` (in time order); the pauses so far are then forgotten. */
    async pausedIn(spans: Span[][]): Promise<number[][]> {
      // Node reports a pause from an immediate after it: the event loop is let through once first.
      await new Promise((resolve) => setImmediate(resolve));
      take(observer.takeRecords());
      pauses.sort((a, b) => a.start - b.start);
      const paused = spans.map((own) => {
        let first = 0;
        return own.map(({ start, end }) => {
          while (first < pauses.length && pauses[first]!.end <= start) first++;
          let ms = 0;
          for (let i = first; i < pauses.length && pauses[i]!.start < end; i++)
            ms += Math.min(end, pauses[i]!.end) - Math.max(start, pauses[i]!.start);
          return ms;
        });
      });
      pauses.length = 0;
      return paused;
    },
  };
}
export type Pauses = ReturnType<typeof watchPauses>;

/** What a variant's calls came to over the rounds. */
class Tally {
  /** Per round: mean microseconds per call, pauses taken out, slowest TRIM left out. */
  working: number[] = [];
  /** Per round: plain mean microseconds per call. */
  plain: number[] = [];
  pausedUs = 0;
  calls = 0;
  /** Microseconds of every call no pause fell in. */
  quiet: number[] = [];

  addRound(spans: Span[], paused: number[], concurrency: number): void {
    const all: number[] = [];
    const working: number[] = [];
    spans.forEach(({ start, end }, i) => {
      const us = ((end - start) * 1000) / concurrency;
      const pausedUs = (paused[i]! * 1000) / concurrency;
      all.push(us);
      working.push(us - pausedUs);
      if (paused[i] === 0) this.quiet.push(us);
      this.pausedUs += pausedUs;
      this.calls++;
    });
    this.working.push(trimmedMean(working, TRIM));
    this.plain.push(trimmedMean(all, 0));
  }

  /** The share of quiet calls over 4 times their median, and the share of their time they hold. */
  stalls(): Row['stalls'] {
    const median = percentile(
      [...this.quiet].sort((a, b) => a - b),
      0.5,
    );
    const slow = this.quiet.filter((us) => us > 4 * median);
    return { calls: slow.length / this.quiet.length, time: sum(slow) / sum(this.quiet) };
  }
}

/**
 * Rounds in which every variant runs `perRound` batches of `concurrency` calls, spread over TURNS turns of the
 * harness (after half a round of warm-up). A variant's cost in a round is the mean of its calls with the pauses
 * inside them taken out, without the slowest TRIM of them, plus the pauses per call it met over all rounds: the
 * pauses a variant's allocation brings are counted in full, at their long-run rate, not as they fell in one round.
 */
export async function compareCalls(
  pauses: Pauses,
  section: string,
  variants: [string, Call][],
  reference: string,
  { rounds, perRound, concurrency = 1 }: { rounds: number; perRound: number; concurrency?: number },
): Promise<Row[]> {
  const batch = (call: Call) => (concurrency === 1 ? call() : Promise.all(Array.from({ length: concurrency }, call)));
  const contenders = variants.map(
    ([name, call]): Contender<Span[]> => ({
      name,
      ...(name === reference ? { role: 'reference' as const } : {}),
      turn: async (index) => {
        const spans: Span[] = [];
        const calls = Math.floor(perRound / TURNS) + (index >= 0 && index < perRound % TURNS ? 1 : 0);
        for (let i = 0; i < calls; i++) {
          const start = performance.now();
          await batch(call);
          spans.push({ start, end: performance.now() });
        }
        return spans;
      },
    }),
  );
  const tallies = variants.map(() => new Tally());
  for (let round = 0; round < rounds; round++) {
    const spans = (await takeTurns(contenders, { turns: TURNS, warmUp: round ? 0 : TURNS / 2 })).map((turns) =>
      turns.flat(),
    );
    const paused = await pauses.pausedIn(spans);
    for (const [i, tally] of tallies.entries()) tally.addRound(spans[i]!, paused[i]!, concurrency);
  }
  const gcUs = tallies.map((t) => t.pausedUs / t.calls);
  const cost = compare(
    contenders,
    tallies.map((t, i) => t.working.map((us) => us + gcUs[i]!)),
    (us) => us,
  );
  const plain = compare(
    contenders,
    tallies.map((t) => t.plain),
    (us) => us,
  );
  const one = summarize([1]);
  return cost.map((c, i) => ({
    section,
    name: c.name,
    reference: c.role === 'reference',
    us: c.figure,
    gcUs: gcUs[i]!,
    ratio: c.ratio ?? one,
    ratioAll: plain[i]!.ratio ?? one,
    stalls: tallies[i]!.stalls(),
    gcCalls: 1 - tallies[i]!.quiet.length / tallies[i]!.calls,
  }));
}
