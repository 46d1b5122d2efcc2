// BENCHMARKS.md as `npm run bench -- --write` writes it: the whole file, the client's tables and targets, and the
// marked sections that `--only-start --write`, `--only-writes --write` and `bench:usage -- --write` rewrite alone.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { readBudget } from './bundle-size.js';
import type { ClientPart } from './client-bench.js';
import { BODY } from './client-calls.js';
import { type Row, TRIM, TURNS } from './client-turns.js';
import { type Compared, markdownTable, ratioText, type Summary, spread } from './harness.js';
import { WRITES } from './write-bench.js';

/** Replaces the marked section `name` of BENCHMARKS.md with `section`; where there is none yet, it goes before the targets. */
export function rewriteSection(name: string, section: string): void {
  const file = join(repoRoot, 'BENCHMARKS.md');
  const text = readFileSync(file, 'utf8');
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`);
  const updated = marked.test(text)
    ? text.replace(marked, () => section)
    : text.includes('\n## Targets')
      ? text.replace('\n## Targets', () => `\n${section}\n\n## Targets`)
      : `${text}\n${section}\n`;
  writeFileSync(file, updated);
}

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: repoRoot, encoding: 'utf8' }).trim();
const today = () => new Date().toISOString().slice(0, 10);
/** When and where a section was measured: `commit abc1234, 2026-11-29; 2 cores, Node v20.20.2`. */
const stamp = () =>
  `commit ${git('rev-parse', '--short', 'HEAD')}, ${today()}; ${cpus().length} cores, Node ${process.version}`;

/** The writes' section of BENCHMARKS.md, between markers so that `--only-writes --write` can rewrite it alone. */
export function writeSection(table: string[], targetLines: string[]): string {
  return `<!-- writes:start -->
## Writes

Measured by \`npm run bench -- --only-writes\` (${stamp()}). The
writes ${WRITES.join(', ')} against Prism answering the same request (the same bytes, Prism with its own token),
each server in its own process, loaded by autocannon with 1 and 32 clients: after a warm-up, the targets take
half-second turns, each counted from the moment all its connections have had a first answer, and the throughput
ratio to Prism is taken in each turn. Prism has no control API:
completePayout, which needs a new pending payout in its path each time (made beforehand by createPayout), is
compared with Prism answering createPayout, a POST of the same shape, each request built anew for both. The
floor is createPayout's own statements sent straight to PGlite in memory from the bench process, with nothing
else (no HTTP, no validation, no handler), its variants taking turns; the last column of the writes gives each
sandbox row's rate as a share of the floor's best. Last, two sandbox instances on one PostgreSQL server against one
(\`scripts/bench/postgres-write-bench.ts\`).${
    process.env.BENCH_BASELINE_BIN
      ? ` The rows "sandbox (baseline)" are another build loaded in the same turns (BENCH_BASELINE_BIN=${process.env.BENCH_BASELINE_BIN}${process.env.BENCH_BASELINE_NOTE ? `: ${process.env.BENCH_BASELINE_NOTE}` : ''}).`
      : ''
  }

${table.join('\n')}

${targetLines.join('\n')}
<!-- writes:end -->`;
}

/** The start-time section of BENCHMARKS.md, between markers so that `--only-start --write` can rewrite it alone. */
export function startSection(table: string[], targetLines: string[]): string {
  return `<!-- start-times:start -->
## Start time

Measured by \`npm run bench -- --only-start\` (${stamp()}). Each start is
a new process, from spawning it to its first answered request, and is stopped before the next; the targets take
turns in a new random order each round, and the ratio to Prism's start is taken inside each round. The sandbox
starts from the PGlite snapshot \`npm run build\` makes (a store with its tables already made) and loads the
validators the build compiled. The floor is Node itself starting a bare \`node:http\` server.

${table.join('\n')}

${targetLines.join('\n')}
<!-- start-times:end -->`;
}

/** Writes BENCHMARKS.md: the tables and targets of a whole run, the hand-written design figures carried over. */
export function writeBenchmarks(table: string, writesSection: string, startsSection: string, targets: string[]): void {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
  // BENCHMARKS.md itself may differ: it is what this run rewrites.
  const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!BENCHMARKS.md') !== '';
  const commit = git('rev-parse', '--short', 'HEAD') + (changed ? ' with uncommitted changes' : '');
  // The measurements behind the code's choices are written by hand, not by this run: carried over as they are.
  const designFigures =
    /<!-- design-figures:start -->[\s\S]*?<!-- design-figures:end -->/.exec(
      readFileSync(join(repoRoot, 'BENCHMARKS.md'), 'utf8'),
    )?.[0] ?? '';
  writeFileSync(
    join(repoRoot, 'BENCHMARKS.md'),
    `# Benchmarks

Written by \`npm run bench -- --write\` (commit ${commit}, ${today()}). Reproduce with
\`npm ci && npm run bench\` (about eight minutes).

Machine: ${machine}.

How it is measured: every variant makes the same call, the client's bank account list (six accounts,
${Buffer.byteLength(BODY)} bytes of JSON) with a bearer token, its own way. In-process, \`fetch\` is a stub that honours the
signal it is given and answers a fresh \`Response\`, so the figures are the libraries' own cost (ky and axios, through
its fetch adapter, get the same stub). Over loopback, a \`node:http\` server in a child process answers with
keep-alive; it counts the requests it answered, and the count is checked against the calls made.

Rounds are interleaved: within a round each variant's calls are split into ${TURNS} turns, the variants taking turns in
a new random order each turn. Every call is timed (over loopback with 32 clients, every batch of 32 concurrent
calls, divided by 32), and so is every garbage collection pause of the bench process (Node's \`gc\` performance
entries). A variant's cost in a round is the mean time of its calls with the pauses inside them taken out, leaving
out its slowest ${TRIM * 100}% of calls (at least one: with 32 clients, one batch of 64), plus the pauses per call the
variant met over the whole section. The ratio to the reference is computed inside each round; the table gives the
median and the 10th-90th percentile of those per-round ratios. A ratio is called not distinguishable from 1 only
when that range straddles 1. The client is the compiled package (\`dist/lib\`).

Why: on this VM a collection of young objects stops the bench for milliseconds, and a few calls in a thousand stall
for milliseconds with no collection in them (a process scheduled away, a collection in the server). In a round a
variant meets only a handful of either, so a round's plain mean depends on where they happened to fall. Pauses are
a cost a library causes by what it allocates, so they are counted in full, at the rate each variant met them over
all rounds (the "Of which GC pauses" column). The slowest calls without them are left out, the same share from
every variant; the second table gives the share of calls a pause fell in, and how many of the others stalled. The
last column of the first table is the plain per-round ratio, every call as it fell; the memory table gives what
each call allocates.

The sandbox section loads the sandbox (PGlite in memory) and Prism, each in its own process, with the same
requests from autocannon, which builds each request once and writes it to raw keep-alive sockets. Node's own
\`http\` client is too costly for this: on two cores it, not the server, set the pace, and a bare \`node:http\`
server answering fixed bytes reached no more than the sandbox did. That bare server is kept in the table as the
floor. After a warm-up, the targets of an operation take half-second turns. The throughput ratio to Prism is
taken in each turn, and the table gives its median and 10th-90th percentile. Autocannon opens its connections
anew for each turn, and on this machine a busy server's new connections come through one every 10-20 ms (a bare
\`node:http\` server doing the same CPU work per request shows it too), so a turn is counted from the moment every
connection has had its first answer: the figures are those of clients that keep their connections, not of
connection set-up.

${table}

${writesSection}

${startsSection}

## Targets

${targets.join('\n')}

The benchmark is not a test: \`npm test\` never fails on timings (the bundle budget is a test).
${designFigures ? `\n${designFigures}\n` : ''}`,
  );
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

/** The usage extractor's section of BENCHMARKS.md, which `npm run bench:usage -- --write` rewrites alone. */
export function usageSection(
  table: string[],
  { files, runs, before }: { files: number; runs: number; before: boolean },
) {
  return `<!-- usage:start -->
## The usage extractor

\`npm run bench:usage -- --files ${files} --runs ${runs}${before ? ' --before DIR' : ''} --write\`: \`npx ramp-api usage\` on a
generated consuming project of ${files} files, each run a fresh process, taking turns with its floor${before ? ' and\nwith the usage command of an earlier build' : ''} (median and p10-p90 of ${runs} runs; ${today()}, Node
${process.version}, ${cpus().length} cores).

${table.join('\n')}
<!-- usage:end -->`;
}
