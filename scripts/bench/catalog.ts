// What each benchmark measures, in one table: the command that reproduces its figures, its files, what it
// measures against what, the floor beside it, where its figures are kept and its short run. The list in
// scripts/bench/README.md is rendered from it (catalog.test.ts holds the README to it).

interface Benchmark {
  /** The command that reproduces its figures. */
  command: string;
  /** Its entry first, then the files it runs on (harness.ts is every side-by-side's). */
  files: string[];
  measures: string;
  /** What its figures are divided by, turn by turn. */
  against: string;
  /** The same work with nothing else in the way, measured beside it. */
  floor: string;
  /** Where its figures are kept. */
  kept: string;
  /** A short run that shows it still works end to end, or the test that runs it small. */
  smoke: string;
}

export const benchmarks: Benchmark[] = [
  {
    command: 'npm run bench -- --only-client',
    files: ['bench.ts', 'client-bench.ts', 'client-calls.ts', 'client-turns.ts', 'bench-server.ts'],
    measures:
      "the client's cost per call, in-process on a stub fetch and over loopback (1 and 32 concurrent), its GC pauses and stalls; where its time goes, what a call allocates, token single-flight, bundle sizes",
    against:
      'openapi-fetch with an auth middleware (in-process), bare openapi-fetch (loopback); plain fetch, ky, axios beside',
    floor: '`fetch` + `json()` with nothing around it',
    kept: 'BENCHMARKS.md, first tables',
    smoke: '`npm run bench -- --only-client --quick`',
  },
  {
    command: 'npm run bench',
    files: ['sandbox-bench.ts', 'bench-server-child.ts'],
    measures:
      'the sandbox on the reads listBanks and listBankAccounts, 1 and 32 clients: requests per second, p50, p99',
    against: 'Prism answering the same requests',
    floor: "a bare `node:http` server answering the sandbox's bytes",
    kept: 'BENCHMARKS.md, "Sandbox vs Prism"',
    smoke: '`npm run bench -- --quick` (skipped by `--no-sandbox`)',
  },
  {
    command: 'npm run bench -- --only-writes',
    files: ['write-bench.ts', 'write-floor.ts'],
    measures: 'seven writes of the sandbox, 1 and 32 clients: requests per second, p50, p99',
    against: 'Prism answering the same request',
    floor: "createPayout's statements straight on PGlite, three ways taking turns",
    kept: 'BENCHMARKS.md, "Writes"',
    smoke: '`npm run bench -- --only-writes --quick`',
  },
  {
    command: 'npm run bench -- --only-writes',
    files: ['postgres-write-bench.ts'],
    measures: 'createPayout from 32 clients on one PostgreSQL server through two sandbox instances',
    against: 'the same clients on one instance',
    floor: '',
    kept: 'BENCHMARKS.md, "Writes", last table',
    smoke: '`node --import tsx scripts/bench/postgres-write-bench.ts 2`',
  },
  {
    command: 'npm run bench -- --only-start',
    files: ['start-bench.ts'],
    measures: 'the sandbox started five ways, from spawning the process to its first answer',
    against: '`prism mock` started the same way',
    floor: 'Node starting a bare `node:http` server',
    kept: 'BENCHMARKS.md, "Start time"',
    smoke: '`npm run bench -- --only-start --quick`',
  },
  {
    command: 'npm run size',
    files: ['size.ts', 'bundle-size.ts', 'size-budget.json'],
    measures: "what `createBusinessClient` from the root entry adds to a consumer's bundle (esbuild, gzip -9)",
    against: 'the budget in `size-budget.json`',
    floor: 'openapi-fetch alone (in `npm run bench`)',
    kept: '`size-budget.json`; BENCHMARKS.md, bundle table',
    smoke: '`bundle-size.test.ts` (in `npm test`)',
  },
  {
    command: 'npm run bench:usage',
    files: ['usage-bench.ts'],
    measures: '`npx ramp-api usage` on a generated project of 50 files, each run a fresh process',
    against: 'the usage command of an earlier build (`--before DIR`)',
    floor: "TypeScript (ts-morph's) type-checking the same project",
    kept: 'BENCHMARKS.md, "The usage extractor" (`--write`)',
    smoke: '`npm run bench:usage -- --files 5 --runs 1`',
  },
  {
    command: 'npm run bench:events',
    files: ['bench-events.ts'],
    measures: 'events the sandbox delivers per second to a healthy local receiver, end to end',
    against: '',
    floor: 'the receiver taking the same deliveries POSTed straight from the bench, 32 at a time',
    kept: 'printed only',
    smoke: '`npm run bench:events -- 60 3`',
  },
  {
    command: 'npm run sandbox:load',
    files: [
      'sandbox-load.ts',
      'load.ts',
      'load-cluster.ts',
      'load-flows.ts',
      'load-checks.ts',
      'load-delivery-log.ts',
      'load-evidence.ts',
      'load-report.ts',
    ],
    measures:
      'a load and fault test, not a comparison: two sandboxes on one PostgreSQL, one SIGKILLed half-way; its checks pass or fail, with requests per second, p50 and p99 per operation',
    against: '',
    floor: '',
    kept: 'printed only',
    smoke: '`load.postgres.test.ts`, `load-signals.postgres.test.ts` (`npm run test:postgres`)',
  },
];

/** The README's list: one row per benchmark. */
export function catalogTable(): string {
  const code = (files: string[]) => files.map((file) => `\`${file}\``).join(', ');
  return [
    '| Command | Files | Measures | Against | Floor beside it | Figures kept in | Short run |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...benchmarks
      .map((b) => [`\`${b.command}\``, code(b.files), b.measures, b.against, b.floor, b.kept, b.smoke].join(' | '))
      .map((row) => `| ${row} |`),
  ].join('\n');
}
