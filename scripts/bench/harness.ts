// The one harness of the side-by-side benchmarks. Contenders take interleaved turns, in a new random order each
// turn, so that a slow moment of the shared machine falls on all of them alike; each contender's figure per turn is
// summarized (median, 10th and 90th percentile), and divided turn by turn by the reference's figure and by the
// floor's (the same work with nothing else in the way), so that machine noise hits both sides of a ratio alike.
// What a benchmark starts for its turns (sandboxes, Prism, servers) is stopped together when it ends.
import { type LaunchOptions, launchSandbox } from '../../src/testing/sandbox-process.js';
import { apiFamilies } from '../openapi/apis.js';
import { startPrism } from '../openapi/prism.js';

/** The nearest-rank percentile of sorted samples, `q` from 0 to 1; NaN when there are none. */
export const percentile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

export interface Summary {
  median: number;
  p10: number;
  p90: number;
  mean: number;
}

/** The median, 10th and 90th percentile and the mean of `samples`. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((total, value) => total + value, 0) / sorted.length;
  return { median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9), mean };
}

/** A copy of `items` in a random order (Fisher-Yates). */
function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** One side of a comparison: what one turn of it does, and what that turn measured. */
export interface Contender<T> {
  name: string;
  /** `reference`: every other side is divided by it, turn by turn. `floor`: the same work with nothing else. */
  role?: 'reference' | 'floor';
  /** One turn; `index` counts the counted turns from 0, the warm-up turns before them are -warmUp to -1. */
  turn: (index: number) => Promise<T>;
}

interface TurnPlan {
  turns: number;
  /** Turns each contender takes first, in the same interleaving, not counted. */
  warmUp?: number;
  random?: () => number;
}

/** The contenders taking `warmUp` and then `turns` turns, in a new random order each turn: what each measured, per turn. */
export async function takeTurns<T>(
  contenders: readonly Contender<T>[],
  { turns, warmUp = 0, random }: TurnPlan,
): Promise<T[][]> {
  const results = contenders.map((): T[] => []);
  const sides = contenders.map((_, i) => i);
  for (let index = -warmUp; index < turns; index++) {
    for (const i of shuffle(sides, random)) {
      const measured = await contenders[i]!.turn(index);
      if (index >= 0) results[i]!.push(measured);
    }
  }
  return results;
}

export interface Compared<T> {
  name: string;
  role?: Contender<T>['role'];
  /** What each turn measured. */
  turns: T[];
  /** The figure of each turn, summarized. */
  figure: Summary;
  /** The figure divided by the reference's in the same turn, summarized; absent on the reference's row. */
  ratio?: Summary;
  /** The figure divided by the floor's in the same turn, summarized; absent on the floor's row. */
  toFloor?: Summary;
}

/** Each contender's turns (`results`, as takeTurns gives them) through `figure`, summarized and set against the reference and the floor. */
export function compare<T>(
  contenders: readonly Pick<Contender<T>, 'name' | 'role'>[],
  results: readonly T[][],
  figure: (measured: T) => number,
): Compared<T>[] {
  const figures = results.map((turns) => turns.map(figure));
  const against = (role: Contender<T>['role'], i: number) => {
    const other = contenders.findIndex((c) => c.role === role);
    if (other < 0 || other === i) return undefined;
    return summarize(figures[i]!.map((value, turn) => value / figures[other]![turn]!));
  };
  return contenders.map(({ name, role }, i) => {
    const [ratio, toFloor] = [against('reference', i), against('floor', i)];
    return {
      name,
      ...(role ? { role } : {}),
      turns: [...results[i]!],
      figure: summarize(figures[i]!),
      ...(ratio ? { ratio } : {}),
      ...(toFloor ? { toFloor } : {}),
    };
  });
}

/** takeTurns, then compare: the whole side-by-side. */
export async function sideBySide<T>(
  contenders: readonly Contender<T>[],
  plan: TurnPlan,
  figure: (measured: T) => number,
): Promise<Compared<T>[]> {
  return compare(contenders, await takeTurns(contenders, plan), figure);
}

/** A summary as the tables print it: `median (p10–p90)`, each through `unit`. */
export const spread = (s: Summary, unit: (value: number) => string): string =>
  `${unit(s.median)} (${unit(s.p10)}–${unit(s.p90)})`;

/** A ratio's summary as the tables print it: `1.23x (1.10–1.40)`. */
export const ratioText = (s: Summary, digits = 2): string =>
  `${s.median.toFixed(digits)}x (${s.p10.toFixed(digits)}–${s.p90.toFixed(digits)})`;

/** A Markdown table: the header, its rule, the rows; a header or a row is its cells parted by ` | `, or a list of them. */
export function markdownTable(header: string, rows: readonly (string | readonly unknown[])[]): string[] {
  const line = (row: string | readonly unknown[]) => `| ${typeof row === 'string' ? row : row.join(' | ')} |`;
  return [line(header), line(header.split(' | ').map(() => '---')), ...rows.map(line)];
}

/** What a benchmark started, stopped together when it ends: a sandbox in its own process, Prism on a family's bundle, or anything with a stop. */
export function startedHere() {
  const stops: (() => Promise<unknown>)[] = [];
  return {
    add: (stop: () => Promise<unknown>) => stops.push(stop),
    async sandbox(args: string[], options?: LaunchOptions) {
      const sandbox = await launchSandbox(args, options);
      stops.push(async () => {
        sandbox.child.kill('SIGTERM');
        const force = setTimeout(() => sandbox.child.kill('SIGKILL'), 5_000);
        await sandbox.exit;
        clearTimeout(force);
      });
      return sandbox;
    },
    async prism(family: 'v1' | 'business') {
      const prism = await startPrism({ bundle: apiFamilies().find((a) => a.name === family)!.bundleJson });
      stops.push(prism.stop);
      return prism;
    },
    stopAll: () => Promise.allSettled(stops.splice(0).map((stop) => stop())),
  };
}
export type StartedHere = ReturnType<typeof startedHere>;
