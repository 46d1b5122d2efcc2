// `npm run bench [-- --quick] [--only-client | --only-writes | --only-start | --no-sandbox] [--write]`: the start
// times, the client's part, the sandbox's reads and writes against Prism, printed, and with `--write` recorded in
// BENCHMARKS.md. A benchmark, not a test: nothing fails on timings. catalog.ts lists what each part measures.
import { join } from 'node:path';
import type * as RampApi from '../../src/client/index.js';
import { buildAll } from '../build/build-all.js';
import { repoRoot } from '../openapi/apis.js';
import { clientTables, clientTargets, measured, rewriteSection, writeBenchmarks } from './benchmarks-md.js';
import { clientPart } from './client-bench.js';
import { watchPauses } from './client-turns.js';
import { twoInstances, twoInstancesText } from './postgres-write-bench.js';
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
const withSandbox = !args.has('--no-sandbox') && !onlyClient;
// The client and the sandbox as consumers run them: the built packages (`npm run build`), not the TypeScript
// sources through tsx.
await buildAll();
const { createBusinessClient } = (await import(
  join(repoRoot, 'src', 'client', 'dist', 'lib', 'index.js')
)) as typeof RampApi;

/** A part of the run with a section of its own in BENCHMARKS.md, and the command that measures it alone. */
interface Part {
  lines: string[];
  targets: string[];
}
const COMMANDS = { writes: 'npm run bench -- --only-writes', 'start-times': 'npm run bench -- --only-start' };
const section = (name: keyof typeof COMMANDS, { lines, targets }: Part) =>
  measured(COMMANDS[name], [...lines, '', ...targets]);

/** `--only-writes`, `--only-start`: one part alone, printed; with `--write`, only its section of BENCHMARKS.md rewritten. */
function alone(name: keyof typeof COMMANDS, part: Part): never {
  console.log(`${part.lines.join('\n')}\n\nTargets\n${part.targets.join('\n')}`);
  if (args.has('--write')) {
    rewriteSection(name, section(name, part));
    console.log(`\nWrote the ${name} section of BENCHMARKS.md`);
  }
  process.exit(0);
}

// The writes. BENCH_BASELINE_BIN names another build's sandbox `bin.js` (main's, for a before-and-after figure)
// to load in the same turns as this one.
const sandboxes: SandboxTarget[] = [
  { target: 'sandbox' },
  ...(process.env.BENCH_BASELINE_BIN ? [{ target: 'sandbox (baseline)', bin: process.env.BENCH_BASELINE_BIN }] : []),
];
async function writesPart(): Promise<Part> {
  const floor = await writeFloor(quick ? 1 : 4);
  const rows = await writesVsPrism(quick ? 1 : 4, sandboxes);
  const postgres = twoInstancesText(await twoInstances(quick ? 2 : 6));
  // BENCH_BASELINE_NOTE says what the baseline build is.
  const baseline = process.env.BENCH_BASELINE_BIN
    ? [
        `The rows "sandbox (baseline)" are another build loaded in the same turns (BENCH_BASELINE_BIN=${process.env.BENCH_BASELINE_BIN}${process.env.BENCH_BASELINE_NOTE ? `: ${process.env.BENCH_BASELINE_NOTE}` : ''}).`,
        '',
      ]
    : [];
  return {
    lines: [...baseline, ...writeTable(rows, floor), '', ...postgres.lines],
    targets: [...writeTargets(rows), ...postgres.targets],
  };
}
if (args.has('--only-writes')) alone('writes', await writesPart());

// Start time first, on its own.
const START_ROUNDS = quick ? 2 : 7;
const starts = withSandbox ? await startTimes(START_ROUNDS) : undefined;
const start: Part = starts
  ? { lines: startTable(starts, START_ROUNDS), targets: startTargets(starts) }
  : { lines: [], targets: [] };
if (args.has('--only-start')) alone('start-times', start);

const client = await clientPart({ createBusinessClient, quick, pauses: watchPauses() });
const sandboxRows = withSandbox ? await sandboxVsPrism(quick ? 1 : 4) : [];
const writes = withSandbox ? await writesPart() : undefined;

const table = [...clientTables(client), ...(sandboxRows.length ? ['', ...sandboxTable(sandboxRows)] : [])];
// The start times are printed with the rest, and written to BENCHMARKS.md in their own section.
console.log(
  [...table, ...(writes ? ['', ...writes.lines] : []), ...(start.lines.length ? ['', ...start.lines] : [])].join('\n'),
);
const targets = [
  ...clientTargets(client),
  ...sandboxTargets(sandboxRows),
  ...(writes?.targets ?? []),
  ...start.targets,
];
console.log(`\nTargets\n${targets.join('\n')}`);

if (args.has('--write'))
  writeBenchmarks({
    client: table,
    ...(writes ? { writes: section('writes', writes) } : {}),
    ...(starts ? { starts: section('start-times', start) } : {}),
    targets,
  });
