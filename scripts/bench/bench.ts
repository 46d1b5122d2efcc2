// `npm run bench`: one run, one table. First the start time of the sandbox against Prism's (`-- --only-start`
// runs only that). The typed client's cost per call against what a team would otherwise
// use (plain fetch, openapi-fetch bare and with an auth middleware, ky, axios), in-process with a stub fetch
// and over loopback to a server in a child process, in interleaved rounds of shuffled order with the ratio
// taken inside each round; then where the client's remaining cost goes (CPU profile), token single-flight and
// bundle sizes; then the sandbox against Prism under load (`-- --no-sandbox` skips it; `-- --only-client` runs
// only the client's part). `-- --write` records it in BENCHMARKS.md. A benchmark, not a test: nothing fails on
// timings.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import axios from 'axios';
import ky from 'ky';
import createClient, { type Middleware } from 'openapi-fetch';
import { businessOperations, type paths } from '../../src/client/business/index.js';
import type * as RampApi from '../../src/client/index.js';
import { buildAll } from '../build/build-all.js';
import { repoRoot } from '../openapi/apis.js';
import { startBenchServer } from './bench-server.js';
import { BUDGETED_IMPORT, bundleSize, readBudget } from './bundle-size.js';
import { percentile, ratioText } from './percentile.js';
import { twoInstances } from './postgres-write-bench.js';
import { sandboxTable, sandboxTargets, sandboxVsPrism } from './sandbox-bench.js';
import { startTable, startTargets, startTimes } from './start-bench.js';
import { type SandboxTarget, WRITES, writesVsPrism, writeTable, writeTargets } from './write-bench.js';
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

/** Replaces the marked section `name` of BENCHMARKS.md with `section`; where there is none yet, it goes before the targets. */
function rewriteSection(name: string, section: string): void {
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
function writeSection(table: string[], targetLines: string[]): string {
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
function startSection(table: string[], targetLines: string[]): string {
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

const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const TOKEN = 'bench-token';
const PATH = businessOperations.listBankAccounts.path.replace('{clientId}', CLIENT_ID);
/** A realistic answer: six bank accounts of one client, as listBankAccounts returns them. */
const BODY = JSON.stringify(
  ['BANCOLOMBIA', 'DAVIVIENDA', 'BANCO DE BOGOTA', 'BBVA COLOMBIA', 'NEQUI', 'BANCO POPULAR'].map((bank, i) => ({
    id: `1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a1${i}`,
    accountHolderName: 'Cafetera Andina S.A.S.',
    accountNickname: `Cuenta ${bank.toLowerCase()}`,
    accountNumber: `031000458${70 + i}`,
    accountType: i % 2 ? 'corriente' : 'ahorros',
    bank: { name: bank },
    countryFiat: { symbolFiat: 'COP', countryId: 'CO' },
    metadata: [{ key: 'costCenter', value: `CC-${100 + i}` }],
    status: i === 5 ? 'in_review' : 'accepted',
    registerDate: `2026-09-0${i + 1} 11:20:15.772340`,
    userId: CLIENT_ID,
  })),
);
const JSON_HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };
const AUTH = { authorization: `Bearer ${TOKEN}` };

type Call = () => Promise<unknown>;
interface Row {
  section: string;
  name: string;
  /** Microseconds per call (see `compare`): median, 10th and 90th percentile over the rounds. */
  us: Summary;
  /** Microseconds of the bench's garbage collection pauses per call, over all rounds. */
  gcUs: number;
  /** The share of calls a garbage collection pause fell in. */
  gcCalls: number;
  /** Ratio to the section's reference, taken inside each round (see `compare`). */
  ratio: Summary;
  /** The plain per-round ratio: every call as it fell, pauses included where they fell. */
  ratioAll: Summary;
  /** Of the calls no garbage collection pause fell in, over all rounds: the share taking over 4 times their median, and the share of their time they hold. */
  stalls: { calls: number; time: number };
}
interface Summary {
  median: number;
  p10: number;
  p90: number;
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9) };
}
function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const TURNS = 40;
/** The share of each variant's slowest calls in a round, garbage collection taken out, that its mean leaves out. */
const TRIM = 0.01;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Mean of `samples`, without the slowest `trim` share of them (at least one, when `trim` is above 0). */
function trimmedMean(samples: number[], trim: number): number {
  const kept = [...samples].sort((a, b) => a - b).slice(0, samples.length - Math.ceil(samples.length * trim));
  return sum(kept) / kept.length;
}

/** The share of `samples` over 4 times their median, and the share of the total they hold. */
function stallsOf(samples: number[]): { calls: number; time: number } {
  const median = percentile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );
  const slow = samples.filter((value) => value > 4 * median);
  return { calls: slow.length / samples.length, time: sum(slow) / sum(samples) };
}

/** The bench's own garbage collection pauses (start and end, performance.now() ms), as Node reports them. */
const pauses: { start: number; end: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
});
gcObserver.observe({ entryTypes: ['gc'] });

/** Every pause so far: Node reports one from an immediate after it, so the event loop is let through once first. */
async function flushPauses(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (const entry of gcObserver.takeRecords())
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  pauses.sort((a, b) => a.start - b.start);
}

/** Milliseconds of garbage collection pauses inside each of `spans` (in time order), from `pauses`. */
function pausedIn(spans: { start: number; end: number }[]): number[] {
  let first = 0;
  return spans.map(({ start, end }) => {
    while (first < pauses.length && pauses[first]!.end <= start) first++;
    let paused = 0;
    for (let i = first; i < pauses.length && pauses[i]!.start < end; i++)
      paused += Math.min(end, pauses[i]!.end) - Math.max(start, pauses[i]!.start);
    return paused;
  });
}

/**
 * Rounds in which every variant runs `perRound` batches of `concurrency` calls, in a new random order each turn;
 * the ratio to `reference` is computed inside each round, so that machine noise hits both sides of it alike.
 * A variant's cost in a round is the mean of its calls with the garbage collection pauses inside them taken out,
 * without the slowest TRIM of them, plus the pauses per call it met over all rounds: the pauses a variant's
 * allocation brings are counted in full, but at their long-run rate, not as they happened to fall in one round.
 */
async function compare(
  section: string,
  variants: [string, Call][],
  reference: string,
  rounds: number,
  perRound: number,
  concurrency = 1,
): Promise<Row[]> {
  const batch = async (call: Call) => {
    if (concurrency === 1) await call();
    else await Promise.all(Array.from({ length: concurrency }, call));
  };
  for (const [, call] of variants) for (let i = 0; i < Math.max(50, perRound / 2); i++) await batch(call); // warm-up
  const names = variants.map(([name]) => name);
  const perName = <T>(make: () => T) => new Map<string, T>(names.map((name) => [name, make()]));
  /** Per round: mean microseconds per call, pauses taken out, slowest TRIM left out. */
  const working = perName<number[]>(() => []);
  /** Per round: plain mean microseconds per call. */
  const plain = perName<number[]>(() => []);
  const pausedUs = perName(() => ({ total: 0, calls: 0 }));
  const everyCall = perName<number[]>(() => []);
  const quietCalls = perName<number[]>(() => []);
  for (let round = 0; round < rounds; round++) {
    // Each variant's calls of a round are spread over TURNS turns, the variants taking turns in a new random
    // order each turn: a slow moment of the shared machine then falls on every variant of the round, not on
    // whichever ran during it, and the ratio inside the round keeps its meaning.
    const spans: { name: string; start: number; end: number }[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const calls = Math.floor(perRound / TURNS) + (turn < perRound % TURNS ? 1 : 0);
      for (const [name, call] of shuffle(variants)) {
        for (let i = 0; i < calls; i++) {
          const start = performance.now();
          await batch(call);
          spans.push({ name, start, end: performance.now() });
        }
      }
    }
    await flushPauses();
    const paused = pausedIn(spans);
    const roundOf = perName(() => ({ all: [] as number[], working: [] as number[] }));
    spans.forEach(({ name, start, end }, i) => {
      const us = ((end - start) * 1000) / concurrency;
      const pausedPerCall = (paused[i]! * 1000) / concurrency;
      roundOf.get(name)!.all.push(us);
      roundOf.get(name)!.working.push(us - pausedPerCall);
      everyCall.get(name)!.push(us);
      if (paused[i] === 0) quietCalls.get(name)!.push(us);
      const tally = pausedUs.get(name)!;
      tally.total += pausedPerCall;
      tally.calls++;
    });
    for (const name of names) {
      working.get(name)!.push(trimmedMean(roundOf.get(name)!.working, TRIM));
      plain.get(name)!.push(trimmedMean(roundOf.get(name)!.all, 0));
    }
    pauses.length = 0;
  }
  const gcPerCall = new Map(names.map((name) => [name, pausedUs.get(name)!.total / pausedUs.get(name)!.calls]));
  const cost = new Map(names.map((name) => [name, working.get(name)!.map((us) => us + gcPerCall.get(name)!)]));
  const perRoundRatio = (values: Map<string, number[]>, name: string) =>
    values.get(name)!.map((value, round) => value / values.get(reference)![round]!);
  return names.map((name) => ({
    section,
    name,
    us: summarize(cost.get(name)!),
    gcUs: gcPerCall.get(name)!,
    ratio: summarize(perRoundRatio(cost, name)),
    ratioAll: summarize(perRoundRatio(plain, name)),
    stalls: stallsOf(quietCalls.get(name)!),
    gcCalls: 1 - quietCalls.get(name)!.length / everyCall.get(name)!.length,
  }));
}

/** The variants, each doing the same call (the bank account list, with a bearer token) its own way. */
function variants(baseUrl: string, fetchImpl: typeof fetch): [string, Call][] {
  const url = baseUrl + PATH;
  const bare = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const withMiddleware = createClient<paths>({ baseUrl, fetch: fetchImpl });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('authorization', AUTH.authorization);
      return request;
    },
  };
  withMiddleware.use(auth);
  const kyClient = ky.create({
    prefixUrl: baseUrl,
    fetch: fetchImpl,
    hooks: { beforeRequest: [(request) => request.headers.set('authorization', AUTH.authorization)] },
  });
  const axiosClient = axios.create({ adapter: 'fetch', env: { fetch: fetchImpl } } as Parameters<
    typeof axios.create
  >[0]);
  const ramp = createBusinessClient({ baseUrl, fetch: fetchImpl, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  return [
    ['fetch + json()', async () => (await fetchImpl(url, { headers: AUTH })).json()],
    [
      'fetch(new Request(url, init)) + json()',
      async () => (await fetchImpl(new Request(url, { headers: AUTH }))).json(),
    ],
    ['openapi-fetch', () => bare.GET('/api/accounts/{clientId}', { ...params, headers: AUTH })],
    ['openapi-fetch + auth middleware', () => withMiddleware.GET('/api/accounts/{clientId}', params)],
    ['ky + beforeRequest hook', () => kyClient.get(PATH.slice(1)).json()],
    ['axios (fetch adapter)', () => axiosClient.get(url, { headers: AUTH })],
    ['ramp-api client (auth, retries, timeout)', () => ramp.listBankAccounts(params)],
  ];
}

/** A stub fetch that honours the signal it is given and answers a fresh Response, as a server would. */
const stub = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  if (signal?.aborted) throw signal.reason;
  return new Response(BODY, { status: 200, headers: JSON_HEADERS });
}) as typeof fetch;

async function inProcess(): Promise<Row[]> {
  // About 100 ms per variant and round, so that a garbage collection pause does not decide a round.
  return compare(
    'in-process, stub fetch',
    variants('https://api.example.co', stub),
    'openapi-fetch + auth middleware',
    quick ? 5 : 21,
    4000,
  );
}

async function overLoopback(): Promise<{ rows: Row[]; sent: number; answered: number }> {
  const server = await startBenchServer(BODY);
  let sent = 0;
  const counted = variants(server.url, globalThis.fetch).map(([name, call]): [string, Call] => [
    name,
    () => {
      sent++;
      return call();
    },
  ]);
  try {
    const rows = [
      ...(await compare('loopback, sequential', counted, 'openapi-fetch', quick ? 5 : 31, 500)),
      ...(await compare('loopback, 32 concurrent', counted, 'openapi-fetch', quick ? 5 : 31, 64, 32)),
    ];
    return { rows, sent, answered: await server.answered() };
  } finally {
    await server.stop();
  }
}

/** Where the client's time goes: self time of its own functions under the CPU profiler, per call. */
async function costBreakdown(calls = 100_000) {
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  for (let i = 0; i < 5_000; i++) await ramp.listBankAccounts(params);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  const started = performance.now();
  for (let i = 0; i < calls; i++) await ramp.listBankAccounts(params);
  const elapsedUs = (performance.now() - started) * 1000;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const counts = new Map<number, number>();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = profile.samples?.length ?? 1;
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = counts.get(node.id) ?? 0;
    const { url, functionName } = node.callFrame;
    const place = url.includes('/dist/lib/')
      ? `ramp-api ${url.split('/dist/lib/')[1]} ${functionName || '(anonymous)'}`
      : url.includes('openapi-fetch')
        ? 'openapi-fetch'
        : 'runtime (Request, Response, JSON, streams, GC, ...)';
    byPlace.set(place, (byPlace.get(place) ?? 0) + hits);
  }
  const perCall = elapsedUs / calls;
  return [...byPlace]
    .map(([place, hits]) => ({ place, us: (hits / total) * perCall }))
    .sort((a, b) => b.us - a.us)
    .filter((entry) => !entry.place.startsWith('ramp-api') || entry.us >= 0.01);
}

/**
 * Memory each call allocates (the sampling heap profiler, every 128 bytes, objects collected since included),
 * for openapi-fetch with an auth middleware and for the client; the client's own functions listed apart.
 */
async function allocations(calls = 50_000) {
  const mw = variants('https://api.example.co', stub).find(([name]) => name === 'openapi-fetch + auth middleware')![1];
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  const measure = async (call: Call) => {
    for (let i = 0; i < 5_000; i++) await call();
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i++) await call();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    const own = new Map<string, number>();
    let total = 0;
    const walk = (node: typeof profile.head) => {
      total += node.selfSize;
      const { url, functionName } = node.callFrame;
      if (url.includes('/dist/lib/')) {
        const place = `ramp-api ${url.split('/dist/lib/')[1]} ${functionName || '(anonymous)'}`;
        own.set(place, (own.get(place) ?? 0) + node.selfSize);
      }
      node.children.forEach(walk);
    };
    walk(profile.head);
    return {
      total: total / calls,
      own: [...own].map(([place, bytes]) => ({ place, bytes: bytes / calls })).sort((a, b) => b.bytes - a.bytes),
    };
  };
  return { middleware: await measure(mw), ramp: await measure(() => ramp.listBankAccounts(params)) };
}

async function singleFlight(concurrent = 1000) {
  let tokenRequests = 0;
  const tokenStub = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/api/token')) {
      tokenRequests++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(JSON.stringify({ accessToken: TOKEN }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return stub(input, init);
  }) as typeof fetch;
  const ramp = createBusinessClient({
    baseUrl: 'https://api.example.co',
    fetch: tokenStub,
    auth: { credentials: { clientId: CLIENT_ID } },
  });
  const results = await Promise.all(
    Array.from({ length: concurrent }, () => ramp.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })),
  );
  return { concurrent, ok: results.filter((r) => r.response.ok).length, tokenRequests };
}

const inProcessRows = await inProcess();
const loopback = await overLoopback();
const breakdown = await costBreakdown();
const allocated = await allocations();
const flight = await singleFlight();
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

if (args.has('--write')) {
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

${writes ? writeSection(writes.lines, writes.targets) : ''}

${starts ? startSection(startLines, startTargets(starts)) : ''}

## Targets

${targets.join('\n')}

The benchmark is not a test: \`npm test\` never fails on timings (the bundle budget is a test).
${designFigures ? `\n${designFigures}\n` : ''}`,
  );
  console.log('\nWrote BENCHMARKS.md');
}
