// How `npm run bench` compares the variants' cost per call: interleaved rounds of shuffled turns, the ratio to the
// reference taken inside each round, the bench's own garbage collection pauses taken out and counted at their rate.
import { PerformanceObserver } from 'node:perf_hooks';
import type { Call } from './client-calls.js';
import { percentile, type Summary, shuffle, summarize } from './percentile.js';

export interface Row {
  section: string;
  name: string;
  /** Microseconds per call (see `compare`): median, 10th and 90th percentile over the rounds. */
  us: Summary;
  /** Microseconds of the bench's garbage collection pauses per call, over all rounds. */
  gcUs: number;
  /** The share of calls a garbage collection pause fell in. */
  gcCalls: number;
  /** Ratio to the section's reference, taken inside each round (see `compare`). */
  ratio: Summary;
  /** The plain per-round ratio: every call as it fell, pauses included where they fell. */
  ratioAll: Summary;
  /** Of the calls no garbage collection pause fell in, over all rounds: the share taking over 4 times their median, and the share of their time they hold. */
  stalls: { calls: number; time: number };
}

export const TURNS = 40;
/** The share of each variant's slowest calls in a round, garbage collection taken out, that its mean leaves out. */
export const TRIM = 0.01;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Mean of `samples`, without the slowest `trim` share of them (at least one, when `trim` is above 0). */
function trimmedMean(samples: number[], trim: number): number {
  const kept = [...samples].sort((a, b) => a - b).slice(0, samples.length - Math.ceil(samples.length * trim));
  return sum(kept) / kept.length;
}

/** The share of `samples` over 4 times their median, and the share of the total they hold. */
function stallsOf(samples: number[]): { calls: number; time: number } {
  const median = percentile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );
  const slow = samples.filter((value) => value > 4 * median);
  return { calls: slow.length / samples.length, time: sum(slow) / sum(samples) };
}

/** The bench's own garbage collection pauses (start and end, performance.now() ms), as Node reports them from now on. */
export function watchPauses() {
  const pauses: { start: number; end: number }[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  gcObserver.observe({ entryTypes: ['gc'] });

  /** Every pause so far: Node reports one from an immediate after it, so the event loop is let through once first. */
  async function flushPauses(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    for (const entry of gcObserver.takeRecords())
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
    pauses.sort((a, b) => a.start - b.start);
  }

  /** Milliseconds of garbage collection pauses inside each of `spans` (in time order), from `pauses`. */
  function pausedIn(spans: { start: number; end: number }[]): number[] {
    let first = 0;
    return spans.map(({ start, end }) => {
      while (first < pauses.length && pauses[first]!.end <= start) first++;
      let paused = 0;
      for (let i = first; i < pauses.length && pauses[i]!.start < end; i++)
        paused += Math.min(end, pauses[i]!.end) - Math.max(start, pauses[i]!.start);
      return paused;
    });
  }

  /** Forgets the pauses so far: each round takes only its own. */
  const forget = () => {
    pauses.length = 0;
  };

  return { flushPauses, pausedIn, forget };
}
export type Pauses = ReturnType<typeof watchPauses>;

/**
 * Rounds in which every variant runs `perRound` batches of `concurrency` calls, in a new random order each turn;
 * the ratio to `reference` is computed inside each round, so that machine noise hits both sides of it alike.
 * A variant's cost in a round is the mean of its calls with the garbage collection pauses inside them taken out,
 * without the slowest TRIM of them, plus the pauses per call it met over all rounds: the pauses a variant's
 * allocation brings are counted in full, but at their long-run rate, not as they happened to fall in one round.
 */
export async function compare(
  pauses: Pauses,
  section: string,
  variants: [string, Call][],
  reference: string,
  rounds: number,
  perRound: number,
  concurrency = 1,
): Promise<Row[]> {
  const batch = async (call: Call) => {
    if (concurrency === 1) await call();
    else await Promise.all(Array.from({ length: concurrency }, call));
  };
  for (const [, call] of variants) for (let i = 0; i < Math.max(50, perRound / 2); i++) await batch(call); // warm-up
  const names = variants.map(([name]) => name);
  const perName = <T>(make: () => T) => new Map<string, T>(names.map((name) => [name, make()]));
  /** Per round: mean microseconds per call, pauses taken out, slowest TRIM left out. */
  const working = perName<number[]>(() => []);
  /** Per round: plain mean microseconds per call. */
  const plain = perName<number[]>(() => []);
  const pausedUs = perName(() => ({ total: 0, calls: 0 }));
  const everyCall = perName<number[]>(() => []);
  const quietCalls = perName<number[]>(() => []);
  for (let round = 0; round < rounds; round++) {
    // Each variant's calls of a round are spread over TURNS turns, the variants taking turns in a new random
    // order each turn: a slow moment of the shared machine then falls on every variant of the round, not on
    // whichever ran during it, and the ratio inside the round keeps its meaning.
    const spans: { name: string; start: number; end: number }[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const calls = Math.floor(perRound / TURNS) + (turn < perRound % TURNS ? 1 : 0);
      for (const [name, call] of shuffle(variants)) {
        for (let i = 0; i < calls; i++) {
          const start = performance.now();
          await batch(call);
          spans.push({ name, start, end: performance.now() });
        }
      }
    }
    await pauses.flushPauses();
    const paused = pauses.pausedIn(spans);
    const roundOf = perName(() => ({ all: [] as number[], working: [] as number[] }));
    spans.forEach(({ name, start, end }, i) => {
      const us = ((end - start) * 1000) / concurrency;
      const pausedPerCall = (paused[i]! * 1000) / concurrency;
      roundOf.get(name)!.all.push(us);
      roundOf.get(name)!.working.push(us - pausedPerCall);
      everyCall.get(name)!.push(us);
      if (paused[i] === 0) quietCalls.get(name)!.push(us);
      const tally = pausedUs.get(name)!;
      tally.total += pausedPerCall;
      tally.calls++;
    });
    for (const name of names) {
      working.get(name)!.push(trimmedMean(roundOf.get(name)!.working, TRIM));
      plain.get(name)!.push(trimmedMean(roundOf.get(name)!.all, 0));
    }
    pauses.forget();
  }
  const gcPerCall = new Map(names.map((name) => [name, pausedUs.get(name)!.total / pausedUs.get(name)!.calls]));
  const cost = new Map(names.map((name) => [name, working.get(name)!.map((us) => us + gcPerCall.get(name)!)]));
  const perRoundRatio = (values: Map<string, number[]>, name: string) =>
    values.get(name)!.map((value, round) => value / values.get(reference)![round]!);
  return names.map((name) => ({
    section,
    name,
    us: summarize(cost.get(name)!),
    gcUs: gcPerCall.get(name)!,
    ratio: summarize(perRoundRatio(cost, name)),
    ratioAll: summarize(perRoundRatio(plain, name)),
    stalls: stallsOf(quietCalls.get(name)!),
    gcCalls: 1 - quietCalls.get(name)!.length / everyCall.get(name)!.length,
  }));
}
