// `npm run bench`: one run, one table. First the start time of the sandbox against Prism's (`-- --only-start`
// runs only that). The typed client's cost per call against what a team would otherwise
// use (plain fetch, openapi-fetch bare and with an auth middleware, ky, axios), in-process with a stub fetch
// and over loopback to a server in a child process, in interleaved rounds of shuffled order with the ratio
// taken inside each round; then where the client's remaining cost goes (CPU profile), token single-flight and
// bundle sizes; then the sandbox against Prism under load (`-- --no-sandbox` skips it; `-- --only-client` runs
// only the client's part). `-- --write` records it in BENCHMARKS.md. A benchmark, not a test: nothing fails on
// timings.
// The client's part is in client-bench.ts (client-calls.ts, client-rounds.ts); BENCHMARKS.md's text in benchmarks-md.ts.
import { join } from 'node:path';
import type * as RampApi from '../../src/client/index.js';
import { buildAll } from '../build/build-all.js';
import { repoRoot } from '../openapi/apis.js';
import { rewriteSection, startSection, writeBenchmarks, writeSection } from './benchmarks-md.js';
import { BUDGETED_IMPORT, bundleSize, readBudget } from './bundle-size.js';
import { allocations, costBreakdown, inProcess, overLoopback, singleFlight } from './client-bench.js';
import { type Row, watchPauses } from './client-rounds.js';
import { ratioText, type Summary } from './percentile.js';
import { twoInstances } from './postgres-write-bench.js';
import { sandboxTable, sandboxTargets, sandboxVsPrism } from './sandbox-bench.js';
import { startTable, startTargets, startTimes } from './start-bench.js';
import { type SandboxTarget, writesVsPrism, writeTable, writeTargets } from './write-bench.js';
import { writeFloor } from './write-floor.js';

// A signal ends the run through exit, so the exit hooks stop what it started (Prism, the sandbox); the
// loopback servers end with their IPC channel.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick'); // fewer rounds, for trying the script itself
// The client's part alone: its comparisons, profile, allocations and bundle sizes, without start times or sandbox.
const onlyClient = args.has('--only-client');
if (onlyClient && args.has('--write'))
  throw new Error('--only-client does not write BENCHMARKS.md: run the whole bench');
// The client and the sandbox as consumers run them: the built packages (`npm run build`), not the TypeScript
// sources through tsx.
await buildAll();
const { createBusinessClient } = (await import(
  join(repoRoot, 'src', 'client', 'dist', 'lib', 'index.js')
)) as typeof RampApi;

// The writes, on their own with `-- --only-writes` (with `--write`, that rewrites only their section of
// BENCHMARKS.md). BENCH_BASELINE_BIN names another build's sandbox `bin.js` (main's, for a before-and-after
// figure) to load in the same turns as this one.
const sandboxes: SandboxTarget[] = [
  { target: 'sandbox' },
  ...(process.env.BENCH_BASELINE_BIN ? [{ target: 'sandbox (baseline)', bin: process.env.BENCH_BASELINE_BIN }] : []),
];
async function writeSectionNow(): Promise<{ lines: string[]; targets: string[] }> {
  const floor = await writeFloor(quick ? 1 : 4);
  const rows = await writesVsPrism(quick ? 1 : 4, sandboxes);
  const postgres = await twoInstances(quick ? 2 : 6);
  const two = postgres ? ratioText(postgres.ratio) : '';
  return {
    lines: [
      ...writeTable(rows, floor),
      '',
      '| createPayout on one PostgreSQL server, 32 clients in two groups of 16 | One instance, per second | Two instances, per second | Two / one, per turn: median (p10–p90) | Not 201 |',
      '| --- | --- | --- | --- | --- |',
      postgres
        ? `| both groups to instance A, or one group to A and one to B, taking turns | ${postgres.one.toFixed(0)} | ${postgres.two.toFixed(0)} | ${two} | ${postgres.failures} |`
        : '| PostgreSQL is not installed here: not measured | | | | |',
    ],
    targets: [
      ...writeTargets(rows),
      ...(postgres
        ? [
            `- PostgreSQL, two sandbox instances against one: ${two} (target at least 1.3x, median of per-turn ratios): ${postgres.ratio.median >= 1.3 ? 'met' : 'missed'}`,
          ]
        : []),
    ],
  };
}
if (args.has('--only-writes')) {
  const writes = await writeSectionNow();
  console.log(`${writes.lines.join('\n')}\n\nTargets\n${writes.targets.join('\n')}`);
  if (args.has('--write')) {
    rewriteSection('writes', writeSection(writes.lines, writes.targets));
    console.log('\nWrote the writes section of BENCHMARKS.md');
  }
  process.exit(0);
}

// Start time first, on its own: `-- --only-start` runs only it (with `--write`, it rewrites only its section of
// BENCHMARKS.md).
const START_ROUNDS = quick ? 2 : 7;
const starts = args.has('--no-sandbox') || onlyClient ? undefined : await startTimes(START_ROUNDS);
const startLines = starts ? startTable(starts, START_ROUNDS) : [];
if (args.has('--only-start')) {
  console.log(startLines.join('\n'));
  const startTargetLines = starts ? startTargets(starts) : [];
  console.log(`\nTargets\n${startTargetLines.join('\n')}`);
  if (args.has('--write')) {
    rewriteSection('start-times', startSection(startLines, startTargetLines));
    console.log('\nWrote the start-time section of BENCHMARKS.md');
  }
  process.exit(0);
}

const bench = { createBusinessClient, quick, pauses: watchPauses() };

const inProcessRows = await inProcess(bench);
const loopback = await overLoopback(bench);
const breakdown = await costBreakdown(createBusinessClient);
const allocated = await allocations(createBusinessClient);
const flight = await singleFlight(createBusinessClient);
const sandboxRows = args.has('--no-sandbox') || onlyClient ? [] : await sandboxVsPrism(quick ? 1 : 4);
const writes = args.has('--no-sandbox') || onlyClient ? undefined : await writeSectionNow();
const sizes = [
  { label: 'openapi-fetch alone', ...(await bundleSize("export { default } from 'openapi-fetch';")) },
  { label: "createBusinessClient from 'ramp-api' (the budgeted import)", ...(await bundleSize(BUDGETED_IMPORT)) },
  {
    label: "everything from 'ramp-api' (both clients, errors, unwrap)",
    ...(await bundleSize("export * from './src/client/index.ts';")),
  },
  { label: "'ramp-api/webhooks'", ...(await bundleSize("export * from './src/client/webhooks/index.ts';")) },
];

const us = (n: number) => `${n.toFixed(2)} µs`;
const x = (s: Summary) => ratioText(s, 3);
const rows = [...inProcessRows, ...loopback.rows];
const references: Record<string, string> = {
  'in-process, stub fetch': 'openapi-fetch + auth middleware',
  'loopback, sequential': 'openapi-fetch',
  'loopback, 32 concurrent': 'openapi-fetch',
};
const noise = (r: Row) =>
  r.ratio.p10 <= 1 && r.ratio.p90 >= 1
    ? 'p10–p90 straddles 1: not distinguishable'
    : r.ratio.median > 1
      ? 'slower'
      : 'faster';
const lines = [
  '| Where | Variant | Per call: median (p10–p90) | Of which GC pauses | Ratio to the reference, per round: median (p10–p90) | Reading | The ratio with every call as it fell |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) =>
    r.name === references[r.section]
      ? `| ${r.section} | **${r.name}** (reference) | ${us(r.us.median)} (${us(r.us.p10)}–${us(r.us.p90)}) | ${us(r.gcUs)} | 1 | | 1 |`
      : `| ${r.section} | ${r.name} | ${us(r.us.median)} (${us(r.us.p10)}–${us(r.us.p90)}) | ${us(r.gcUs)} | ${x(r.ratio)} | ${noise(r)} | ${x(r.ratioAll)} |`,
  ),
  '',
  '| Calls, all rounds | Variant | A GC pause fell in them | Of the others: over 4x their median | Share of their time |',
  '| --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.section} | ${r.name} | ${(r.gcCalls * 100).toFixed(2)}% | ${(r.stalls.calls * 100).toFixed(2)}% | ${(r.stalls.time * 100).toFixed(1)}% |`,
  ),
  '',
  `Loopback server (child process): ${loopback.answered} requests answered, ${loopback.sent} sent: ${loopback.answered === loopback.sent ? 'every call reached it' : 'MISMATCH'}.`,
  '',
  '| Where a ramp-api call spends its time (in-process, CPU profile of 100,000 calls) | Per call |',
  '| --- | --- |',
  ...breakdown.map((b) => `| ${b.place} | ${us(b.us)} |`),
  '',
  '| Memory allocated per call (sampling heap profiler, 50,000 calls) | Bytes |',
  '| --- | --- |',
  `| openapi-fetch + auth middleware, all of it | ${allocated.middleware.total.toFixed(0)} |`,
  `| ramp-api client, all of it | ${allocated.ramp.total.toFixed(0)} |`,
  ...allocated.ramp.own.filter((o) => o.bytes >= 1).map((o) => `| of which ${o.place} | ${o.bytes.toFixed(0)} |`),
  '',
  `| Token single-flight | ${flight.concurrent} concurrent calls on a cold cache | ${flight.ok} succeeded | ${flight.tokenRequests} token request(s) |`,
  '| --- | --- | --- | --- |',
  '',
  '| Bundle for a consumer (esbuild, minified, ESM, gzip -9) | Minified | Gzipped |',
  '| --- | --- | --- |',
  ...sizes.map((s) => `| ${s.label} | ${s.minified} B | ${s.gzipped} B |`),
  ...(sandboxRows.length ? ['', ...sandboxTable(sandboxRows)] : []),
];
const table = lines.join('\n');
// The start times are printed with the rest, and written to BENCHMARKS.md in their own section (below).
console.log(
  [table, ...(writes ? ['', ...writes.lines] : []), ...(startLines.length ? ['', ...startLines] : [])].join('\n'),
);

const ramp = (section: string) => rows.find((r) => r.section === section && r.name.startsWith('ramp-api'))!;
const budgeted = sizes[1]!;
// In-process the client may cost a little more than openapi-fetch with an auth middleware (a deadline and a fetch
// of its own per call, no state shared between calls); over loopback that must not show.
const targets = [
  ['in-process, stub fetch', 'openapi-fetch with an auth middleware', 1.1],
  ['loopback, sequential', 'bare openapi-fetch', 1.05],
  ['loopback, 32 concurrent', 'bare openapi-fetch', 1.05],
].map(([section, against, bound]) => {
  const r = ramp(section as string);
  return `- ${section}: the client costs ${x(r.ratio)} ${against} (target at most ${(bound as number).toFixed(2)}x, median of per-round ratios): ${r.ratio.median <= (bound as number) ? 'met' : 'missed'}; with every call as it fell ${x(r.ratioAll)}`;
});
targets.push(
  `- bundle of createBusinessClient from the root entry: ${budgeted.gzipped} B gzipped (target at most ${readBudget().targetBytes} B; budget in scripts/bench/size-budget.json: ${readBudget().gzippedBytes} B): ${budgeted.gzipped <= readBudget().targetBytes ? 'met' : 'missed'}`,
);
targets.push(...sandboxTargets(sandboxRows));
if (writes) targets.push(...writes.targets);
if (starts) targets.push(...startTargets(starts));
console.log(`\nTargets\n${targets.join('\n')}`);

if (args.has('--write'))
  writeBenchmarks(
    table,
    writes ? writeSection(writes.lines, writes.targets) : '',
    starts ? startSection(startLines, startTargets(starts)) : '',
    targets,
  );
