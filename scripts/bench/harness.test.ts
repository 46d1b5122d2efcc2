// The harness of the side-by-side benchmarks: every contender once per turn in a new order, warm-up turns not
// counted, and the figures summarized and divided turn by turn by the reference's and the floor's.
import { describe, expect, it } from 'vitest';
import { type Contender, compare, markdownTable, percentile, sideBySide, summarize, takeTurns } from './harness.js';

/** A seeded random source, so that a test of the order is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('takeTurns', () => {
  it('runs every contender once per turn, warm-up turns first and not counted, in a new order each turn', async () => {
    const ran: string[] = [];
    const contenders = ['a', 'b', 'c'].map(
      (name): Contender<string> => ({
        name,
        turn: async (index) => {
          ran.push(`${name}${index}`);
          return `${name}${index}`;
        },
      }),
    );
    const results = await takeTurns(contenders, { turns: 12, warmUp: 2, random: seeded(7) });
    const turns = Array.from({ length: 14 }, (_, t) => ran.slice(3 * t, 3 * t + 3));
    for (const [t, turn] of turns.entries())
      expect(turn.map((run) => run.slice(1)).every((index) => index === String(t - 2))).toBe(true);
    expect(turns[0]!.map((run) => run[0]).sort()).toEqual(['a', 'b', 'c']);
    expect(new Set(turns.map((turn) => turn.map((run) => run[0]).join(''))).size).toBeGreaterThan(1);
    expect(results).toEqual(['a', 'b', 'c'].map((name) => Array.from({ length: 12 }, (_, index) => `${name}${index}`)));
  });
});

describe('summaries', () => {
  it('takes the nearest-rank percentile, and the median, the 10th and 90th percentile and the mean', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([], 0.5)).toBeNaN();
    expect(summarize([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])).toEqual({ median: 5, p10: 1, p90: 9, mean: 5.5 });
  });

  it('divides each figure by the reference and by the floor in the same turn, and leaves their own rows without', () => {
    const sides = [
      { name: 'Prism', role: 'reference' as const },
      { name: 'sandbox' },
      { name: 'bare', role: 'floor' as const },
    ];
    const [prism, sandbox, floor] = compare(
      sides,
      [
        [100, 200, 50],
        [300, 400, 100],
        [600, 800, 400],
      ],
      (perSecond) => perSecond,
    );
    expect(prism!.ratio).toBeUndefined();
    expect(prism!.figure.median).toBe(100);
    // Turn by turn 3, 2 and 2, not 267 / 117 of the means.
    expect(sandbox!.ratio).toMatchObject({ median: 2, p10: 2, p90: 3 });
    expect(sandbox!.toFloor).toMatchObject({ median: 0.5, p10: 0.25, p90: 0.5 });
    expect(floor!.toFloor).toBeUndefined();
    expect(floor!.ratio).toMatchObject({ median: 6, p10: 4, p90: 8 });
    expect(floor!.role).toBe('floor');
  });

  it('sideBySide keeps what each turn measured beside the summary of its figure', async () => {
    let n = 0;
    const [only] = await sideBySide([{ name: 'x', turn: async () => ({ count: ++n }) }], { turns: 3 }, (t) => t.count);
    expect(only!.turns).toEqual([{ count: 1 }, { count: 2 }, { count: 3 }]);
    expect(only!.figure.median).toBe(2);
  });
});

describe('markdownTable', () => {
  it('prints the header, its rule and the rows', () => {
    expect(markdownTable('A | B', [[1, '']])).toEqual(['| A | B |', '| --- | --- |', '| 1 |  |']);
  });
});
