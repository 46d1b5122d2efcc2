// BENCHMARKS.md's measured parts, as the benchmarks write them. The file's prose is written by hand, beside the
// figures; a run with `--write` rewrites only the parts it measured, each marked `<!-- NAME:start -->` to
// `<!-- NAME:end -->`: `run` (when and where the whole bench ran), `client` (its tables), `writes`, `start-times`,
// `usage` and `targets`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { readBudget } from './bundle-size.js';
import type { ClientPart } from './client-bench.js';
import type { Row } from './client-turns.js';
import { type Compared, markdownTable, ratioText, type Summary, spread } from './harness.js';

const FILE = join(repoRoot, 'BENCHMARKS.md');

/** Replaces the marked part `name` of BENCHMARKS.md with `lines`. */
export function rewriteSection(name: string, lines: string[]): void {
  const text = readFileSync(FILE, 'utf8');
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`);
  if (!marked.test(text)) throw new Error(`BENCHMARKS.md has no part marked ${name}.`);
  writeFileSync(
    FILE,
    text.replace(marked, () => [`<!-- ${name}:start -->`, ...lines, `<!-- ${name}:end -->`].join('\n')),
  );
}

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: repoRoot, encoding: 'utf8' }).trim();
const today = () => new Date().toISOString().slice(0, 10);

/** A section's part: the command that measured it, when and where, then its lines. */
export const measured = (command: string, lines: string[]): string[] => [
  `Measured by \`${command}\` (commit ${git('rev-parse', '--short', 'HEAD')}, ${today()}; ${cpus().length} cores, Node ${process.version}).`,
  '',
  ...lines,
];

/** The parts a whole run (`npm run bench -- --write`) measured; a part it skipped keeps its last figures. */
interface Run {
  client: string[];
  writes?: string[];
  starts?: string[];
  targets: string[];
}

/** Rewrites BENCHMARKS.md's parts that a whole run measured. */
export function writeBenchmarks({ client, writes, starts, targets }: Run): void {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
  // BENCHMARKS.md itself may differ: it is what this run rewrites.
  const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!BENCHMARKS.md') !== '';
  const commit = git('rev-parse', '--short', 'HEAD') + (changed ? ' with uncommitted changes' : '');
  rewriteSection('run', [
    `Written by \`npm run bench -- --write\` (commit ${commit}, ${today()}). Reproduce with`,
    '`npm ci && npm run bench` (about eight minutes).',
    '',
    `Machine: ${machine}.`,
  ]);
  rewriteSection('client', client);
  if (writes) rewriteSection('writes', writes);
  if (starts) rewriteSection('start-times', starts);
  rewriteSection('targets', targets);
  console.log('\nWrote BENCHMARKS.md');
}

const us = (n: number) => `${n.toFixed(2)} µs`;
const pct = (share: number, digits: number) => `${(share * 100).toFixed(digits)}%`;
const x = (s: Summary) => ratioText(s, 3);
const reading = (r: Row) =>
  r.ratio.p10 <= 1 && r.ratio.p90 >= 1
    ? 'p10–p90 straddles 1: not distinguishable'
    : r.ratio.median > 1
      ? 'slower'
      : 'faster';

/** The client's tables: cost per call, pauses and stalls, the loopback count, profile, allocations, single-flight, bundles. */
export function clientTables({ rows, loopback, breakdown, allocated, flight, sizes }: ClientPart): string[] {
  const perCall = (r: Row) => spread(r.us, us);
  return [
    ...markdownTable(
      'Where | Variant | Per call: median (p10–p90) | Of which GC pauses | Ratio to the reference, per round: median (p10–p90) | Reading | The ratio with every call as it fell',
      rows.map((r) =>
        r.reference
          ? [r.section, `**${r.name}** (reference)`, perCall(r), us(r.gcUs), 1, '', 1]
          : [r.section, r.name, perCall(r), us(r.gcUs), x(r.ratio), reading(r), x(r.ratioAll)],
      ),
    ),
    '',
    ...markdownTable(
      'Calls, all rounds | Variant | A GC pause fell in them | Of the others: over 4x their median | Share of their time',
      rows.map((r) => [r.section, r.name, pct(r.gcCalls, 2), pct(r.stalls.calls, 2), pct(r.stalls.time, 1)]),
    ),
    '',
    `Loopback server (child process): ${loopback.answered} requests answered, ${loopback.sent} sent: ${loopback.answered === loopback.sent ? 'every call reached it' : 'MISMATCH'}.`,
    '',
    ...markdownTable(
      'Where a ramp-api call spends its time (in-process, CPU profile of 100,000 calls) | Per call',
      breakdown.map((b) => [b.place, us(b.us)]),
    ),
    '',
    ...markdownTable('Memory allocated per call (sampling heap profiler, 50,000 calls) | Bytes', [
      ['openapi-fetch + auth middleware, all of it', allocated.middleware.total.toFixed(0)],
      ['ramp-api client, all of it', allocated.ramp.total.toFixed(0)],
      ...allocated.ramp.own.filter((o) => o.bytes >= 1).map((o) => [`of which ${o.place}`, o.bytes.toFixed(0)]),
    ]),
    '',
    ...markdownTable(
      `Token single-flight | ${flight.concurrent} concurrent calls on a cold cache | ${flight.ok} succeeded | ${flight.tokenRequests} token request(s)`,
      [],
    ),
    '',
    ...markdownTable(
      'Bundle for a consumer (esbuild, minified, ESM, gzip -9) | Minified | Gzipped',
      sizes.map((s) => [s.label, `${s.minified} B`, `${s.gzipped} B`]),
    ),
  ];
}

/**
 * The client's targets. In-process it may cost a little more than openapi-fetch with an auth middleware (a
 * deadline and a fetch of its own per call, no state shared between calls); over loopback that must not show.
 */
export function clientTargets({ rows, sizes }: ClientPart): string[] {
  const bounds: [section: string, against: string, bound: number][] = [
    ['in-process, stub fetch', 'openapi-fetch with an auth middleware', 1.1],
    ['loopback, sequential', 'bare openapi-fetch', 1.05],
    ['loopback, 32 concurrent', 'bare openapi-fetch', 1.05],
  ];
  const { gzipped } = sizes[1]!;
  const { targetBytes, gzippedBytes } = readBudget();
  return [
    ...bounds.map(([section, against, bound]) => {
      const r = rows.find((row) => row.section === section && row.name.startsWith('ramp-api'))!;
      return `- ${section}: the client costs ${x(r.ratio)} ${against} (target at most ${bound.toFixed(2)}x, median of per-round ratios): ${r.ratio.median <= bound ? 'met' : 'missed'}; with every call as it fell ${x(r.ratioAll)}`;
    }),
    `- bundle of createBusinessClient from the root entry: ${gzipped} B gzipped (target at most ${targetBytes} B; budget in scripts/bench/size-budget.json: ${gzippedBytes} B): ${gzipped <= targetBytes ? 'met' : 'missed'}`,
  ];
}

/** The usage extractor's table: the command, its floor and the earlier build (`--before`), each per run. */
export function usageTable([usage, floor, before]: Compared<number>[], beforeName: string): string[] {
  const text = ({ median, p10, p90 }: Summary, unit: (value: number) => string) =>
    `${unit(median)} (p10-p90 ${unit(p10)}-${unit(p90)})`;
  const times = (s: Summary) => text(s, (ms) => `${(ms / 1000).toFixed(2)} s`);
  const ratio = (s: Summary) => text(s, (r) => `${r.toFixed(2)}x`);
  return markdownTable('What | Time', [
    ['`npx ramp-api usage`', times(usage!.figure)],
    ['floor: the same TypeScript type-checking the project', times(floor!.figure)],
    ['usage / floor, per run', ratio(usage!.toFloor!)],
    ...(before
      ? [
          [`the usage command before (\`--before\`: ${beforeName})`, times(before.figure)],
          ['usage / before, per run', ratio(usage!.ratio!)],
        ]
      : []),
  ]);
}
