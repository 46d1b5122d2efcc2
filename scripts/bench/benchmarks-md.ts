// BENCHMARKS.md as `npm run bench -- --write` writes it: the whole file, and the marked sections (start times,
// writes) that `--only-start --write` and `--only-writes --write` rewrite alone.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { BODY } from './client-calls.js';
import { TRIM, TURNS } from './client-rounds.js';
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

/** The writes' section of BENCHMARKS.md, between markers so that `--only-writes --write` can rewrite it alone. */
export function writeSection(table: string[], targetLines: string[]): string {
  const machine = `${cpus().length} cores, Node ${process.version}`;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  return `<!-- writes:start -->
## Writes

Measured by \`npm run bench -- --only-writes\` (commit ${commit}, ${new Date().toISOString().slice(0, 10)}; ${machine}). The
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
  const machine = `${cpus().length} cores, Node ${process.version}`;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  return `<!-- start-times:start -->
## Start time

Measured by \`npm run bench -- --only-start\` (commit ${commit}, ${new Date().toISOString().slice(0, 10)}; ${machine}). Each start is
a new process, from spawning it to its first answered request, and is stopped before the next; the targets take
turns in a new random order each round, and the ratio to Prism's start is taken inside each round. The sandbox
starts from the PGlite snapshot \`npm run build\` makes (a store with its tables already made) and loads the
validators the build compiled.

${table.join('\n')}

${targetLines.join('\n')}
<!-- start-times:end -->`;
}

/** Writes BENCHMARKS.md: the tables and targets of a whole run, the hand-written design figures carried over. */
export function writeBenchmarks(table: string, writesSection: string, startsSection: string, targets: string[]): void {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
  const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: repoRoot, encoding: 'utf8' }).trim();
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

Written by \`npm run bench -- --write\` (commit ${commit}, ${new Date().toISOString().slice(0, 10)}). Reproduce with
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
