// The percentile the benchmarks report (nearest rank over sorted samples, `q` from 0 to 1; NaN when empty), and
// how their tables print a ratio.
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/** A ratio's median and 10th-90th percentile as the benchmark tables print it: `1.23x (1.10–1.40)`. */
export const ratioText = ({ median, p10, p90 }: { median: number; p10: number; p90: number }, digits = 2): string =>
  `${median.toFixed(digits)}x (${p10.toFixed(digits)}–${p90.toFixed(digits)})`;
