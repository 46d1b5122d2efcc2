// The percentile the benchmarks report (nearest rank over sorted samples, `q` from 0 to 1; NaN when empty), the
// summary they give of samples (median, 10th and 90th percentile), how their tables print a ratio, and the shuffle
// that sets each round's order.
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/** A ratio's median and 10th-90th percentile as the benchmark tables print it: `1.23x (1.10–1.40)`. */
export const ratioText = ({ median, p10, p90 }: { median: number; p10: number; p90: number }, digits = 2): string =>
  `${median.toFixed(digits)}x (${p10.toFixed(digits)}–${p90.toFixed(digits)})`;

export interface Summary {
  median: number;
  p10: number;
  p90: number;
}

/** The median, 10th and 90th percentile of `samples`. */
export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9) };
}

/** A copy of `items` in a random order (Fisher-Yates). */
export function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
