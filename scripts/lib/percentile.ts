// The percentile the benchmarks report: nearest rank over sorted samples, `q` from 0 to 1. NaN when empty.
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
