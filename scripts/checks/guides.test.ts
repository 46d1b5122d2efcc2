// The front door and the guides: the README stays short (lines of at most 120 characters, no paragraph in a
// table cell) and lists every guide; nothing the README held before it was split is lost (every heading and code
// block of scripts/checks/fixtures/readme-before.json is in the README or in exactly one guide, every table key
// somewhere); every shell block is run by a named test or by CI, or says why it is only illustrative; and every
// link between the files resolves, anchors included.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Lexer, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { type CodeBlock, comparable, headingSlug, inventory, readGuides, readmePath } from '../site/guides.js';

const readme = readFileSync(readmePath, 'utf8');
const guides = readGuides();
const files = [{ path: 'README.md', text: readme }, ...guides.map((g) => ({ path: g.path, text: g.text }))];
const before = JSON.parse(
  readFileSync(join(repoRoot, 'scripts', 'checks', 'fixtures', 'readme-before.json'), 'utf8'),
) as {
  headings: string[];
  codeBlocks: { lang: string; code: string }[];
  tableKeys: string[];
  tableRows: string[][];
  sentences: string[];
};
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the README', () => {
  it('has no line over 120 characters', () => {
    const long = readme
      .split('\n')
      .map((line, i) => ({ line: i + 1, length: line.length }))
      .filter((l) => l.length > 120);
    expect(long).toEqual([]);
  });

  it('has no paragraph inside a table cell: one short phrase per cell', () => {
    const cells = new Lexer()
      .lex(readme)
      .filter((t): t is Tokens.Table => t.type === 'table')
      .flatMap((t) => t.rows.flat().map((cell) => cell.text));
    expect(cells.length).toBeGreaterThan(20);
    expect(cells.filter((c) => c.length > 100 || /[.;:] [A-Z]/.test(c.replace(/`[^`]*`/g, '')))).toEqual([]);
  });

  it('reads in about two minutes', () => {
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(750);
  });

  it('lists every guide in its table of guides, each with a line of its own', () => {
    const listed = [...readme.matchAll(/^\| \[[^\]]+\]\((docs\/guides\/[\w-]+\.md)\) \| [^|]+ \|$/gm)].map((m) => m[1]);
    expect(listed).toEqual(guides.map((g) => g.path));
    expect(guides.length).toBeGreaterThanOrEqual(8);
  });
});

describe('nothing of the README before the guides is lost', () => {
  const now = files.map((file) => ({ ...file, ...inventory(file.text) }));

  it('keeps every heading, in the README or in exactly one guide', () => {
    const misplaced = before.headings
      .map((heading) => ({ heading, in: now.filter((f) => f.headings.includes(heading)).map((f) => f.path) }))
      .filter((h) => h.in.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it('keeps every code block as it was, in the README or in exactly one guide', () => {
    // A block as it was, or its words with the rewordings below made.
    const same = (a: { lang: string; code: string }, b: CodeBlock) =>
      a.lang === b.lang && (a.code === b.code || reword(squash(a.code)) === comparable(b.code));
    const misplaced = before.codeBlocks
      .map((block) => ({
        block: block.code.split('\n')[0],
        in: now.filter((f) => f.codeBlocks.some((b) => same(block, b))).map((f) => f.path),
      }))
      .filter((b) => b.in.length !== 1);
    expect(before.codeBlocks.length).toBe(11);
    expect(misplaced).toEqual([]);
  });

  it('keeps every command, option, variable, path and row of its tables', () => {
    const all = squash(files.map((f) => f.text).join('\n'));
    // A pipe inside a cell is written `\\|` in the Markdown.
    const lost = before.tableKeys.filter(
      (key) =>
        !replaced(key) &&
        ![key, key.replaceAll('|', '\\|')].some((k) => all.includes(squash(renamed(k))) || all.includes(reworded(k))),
    );
    expect(before.tableKeys.length).toBeGreaterThan(100);
    expect(lost).toEqual([]);
  });

  it('keeps every sentence and every table cell, word for word but for the rewordings listed below', () => {
    const all = comparable(files.map((f) => f.text).join('\n'));
    const lost = [
      ...before.sentences,
      // A pipe inside a cell is written `\\|` in the Markdown.
      ...before.tableRows
        .flat()
        .filter((cell) => !replaced(cell))
        .map((cell) => cell.replaceAll('|', '\\|')),
    ]
      .map(reword)
      .filter((text) => !all.includes(text));
    expect(before.sentences.length).toBeGreaterThan(200);
    expect(before.tableRows.length).toBeGreaterThan(120);
    expect(lost.map((text) => text.slice(0, 100))).toEqual([]);
  });

  it('adds no second copy of a block: each marked block is in one file only', () => {
    const markers = now.flatMap((f) => f.codeBlocks.flatMap((b) => (b.marker ? [b.marker] : [])));
    expect(markers.filter((m, i) => markers.indexOf(m) !== i)).toEqual([]);
  });
});

/** The tooling's files the old README named, and where they are now. */
const moves: [from: string, to: string][] = [
  ['scripts/lib/consumer.test.ts', 'scripts/checks/consumer.e2e.test.ts'],
  ['scripts/lib/sandbox-load.test.ts', 'scripts/bench/load.postgres.test.ts'],
  ['scripts/lib/samples.test.ts', 'scripts/site/samples.test.ts'],
  ['scripts/lib/compat.test.ts', 'src/client/usage/rules/<file>.test.ts'],
  ['scripts/lib/leftovers.interrupt.test.ts', 'scripts/checks/leftovers.interrupt.test.ts'],
  ['scripts/lib/build.ts', 'scripts/build/build-all.ts'],
  ['scripts/lib/site.ts', 'scripts/site/site.ts'],
  ['scripts/lib/landing.ts', 'scripts/site/landing.ts'],
  ['scripts/lib/samples.ts', 'scripts/site/samples.ts'],
  ['scripts/build-sandbox-pages.ts', 'scripts/build/build-sandbox-pages.ts'],
  ['scripts/interop.ts', 'scripts/interop/interop.ts'],
  ['scripts/install-budget.json', 'scripts/checks/install-budget.json'],
  ['scripts/size-budget.json', 'scripts/bench/size-budget.json'],
  ['scripts/e2e/', 'scripts/site/*.e2e.test.ts'],
];

/**
 * The cells of the old README's table of the gate's verdicts, whole or by their start: the guide's table of rules,
 * generated from the rules themselves (`npm run compat:rules`), took its place.
 */
const replacedTable = {
  cells: ['Change', 'Verdict', 'BREAKING', 'NOTICE', 'ok (listed)', '`default` added, changed or removed'],
  starts: [
    'Request (parameters and bodies): type narrowed;',
    'Response: type widened (nullability included);',
    'Operation removed, `operationId` changed, parameter removed',
    'Path parameter renamed (`/x/{user_id}` to `/x/{userId}`)',
    'BREAKING, reported as `path parameter renamed',
    'Operations, optional fields and parameters, responses and request enum values added;',
  ],
};
const replaced = (cell: string) =>
  replacedTable.cells.includes(cell) || replacedTable.starts.some((start) => cell.startsWith(start));

/**
 * What changed in the words of the old README when they moved, each change as it was made (white space squashed,
 * link targets dropped): everything else a sentence or a table cell said must still be there word for word.
 */
const rewordings: [from: string, to: string][] = [
  // The Node versions: those CI tests, 20, 22 and 24 (the contributing guide's "Node versions").
  ['Node 20.19 or later (`engines`;', 'Node 20.19, 22 or 24 (`engines`;'],
  ['`npm ci` on Node 20 prints no engine warning).', '`npm ci` on them prints no engine warning).'],
  // Prism 5.16 declares Node 24.18, so npm ci on 20 and 22 warns about it.
  [
    '`npm ci` on them prints no engine warning).',
    "`npm ci` on them prints no engine warning but Prism's, see [Node versions]()).",
  ],
  // The interop table's versions after the upgrades (the contributing guide's "Node versions" says what is held).
  ['(axios 1.13.2)', '(axios 1.18.1)'],
  ['0.94.5', '0.95.0'],
  ['@hey-api/openapi-ts 0.94 are the last', '@hey-api/openapi-ts 0.95 are the last'],
  // The README's table of the two families keeps to one line a row; what it said besides is in the prose under it.
  ['`{base_url}` (test and production)', '`{base_url}`'],
  [', with the fifteen outbound events under `webhooks:`', ''],
  // Sentences that named the README now name the guides, or the guide that holds the thing.
  ["the README's code", "the guides' code"],
  ['in this README', 'in the guide [Your first call]()'],
  ['the deployments named below', 'a real deployment: see [Against a real deployment]()'],
  [
    "the README's setup and every TypeScript block",
    'the setup and every TypeScript block of the README and the guides',
  ],
  ['The samples read the variables this README uses:', 'The samples read the variables the guides use:'],
  ['see **Control API security** below', 'see [Control API security]()'],
  // New places on the site.
  [
    'and the bundles under `site/openapi/`',
    'the guides under `site/guides/` (from `docs/guides/`), and the bundles under `site/openapi/`',
  ],
  // Tests that moved beside the layer they test.
  ...(
    [
      ['stalls', 'http/stalls'],
      ['flow', 'resources/flow'],
      ['tokens', 'resources/tokens'],
      ['odd-input', 'pipeline/odd-input'],
      ['unavailable', 'store/unavailable.postgres'],
      ['isolation', 'resources/isolation'],
      ['pages', 'pages/pages'],
      ['instances', 'store/instances.postgres'],
    ] as const
  ).map(([from, to]): [string, string] => [`src/sandbox/${from}.test.ts`, `src/sandbox/${to}.test.ts`]),
  // Bullets of the sandbox's list of choices that became sections of their own lost their bold lead.
  ['**Connections.** ', ''],
  ['**Control API security.** ', ''],
  ['Events: which transition emits which event', 'Which transition emits which event'],
  // The compatibility guide says once what the gate does not see, then where the packages' changes are listed.
  [
    "Changes to the package that break a consumer's code or expectations without changing the wire format (a function's result, for instance) are listed in [CHANGELOG.md](), newest first.",
    "Changes to the packages that break a consumer's code or expectations without changing the wire format (a function's result, for instance) are not the gate's to see.",
  ],
  ["the compatibility gate's, below.", "the compatibility gate's, above."],
  // Figures measured again.
  [
    "it took 61 to 96 s (103 to 166 s of CPU, the build in its setup included; the spread is the host's speed, which varied that much with nothing else running), and 91 to 131 s with both cores kept busy by other work.",
    "it took 91 s (vitest's Duration, 931 tests, the build in its setup included; 80 s with the 817 tests before the console, the ledger and the sandbox's protections), and, with 817 tests, 91 to 131 s with both cores kept busy by other work.",
  ],
  // Files of the sandbox that moved into its layers (src/sandbox/README.md maps them).
  ['`src/sandbox/states.ts`', '`src/sandbox/core/states.ts`'],
  ['`src/sandbox/db.ts`', '`src/sandbox/store/db.ts`'],
  ['`src/sandbox/page-server.ts`', '`src/sandbox/http/page-server.ts`'],
  [
    'server, router, resources with their SQL, state tables, CLI, and `openapi/` (reading',
    'in layers (see its [map]()): server, router, resources with their SQL, state tables, CLI, and `contract/` (reading',
  ],
  // The resources' SQL became the store's numbered migration files.
  ['resources with their SQL, state tables', 'resources, SQL migrations, state tables'],
  // The tooling's files that moved into the folders of scripts/ (the contributing guide maps them).
  ...moves,
  [
    'Plain TypeScript run with `tsx`; `scripts/lib/` holds what the scripts and tests share (bundling, Ajv validation, the `x-inferred` table).',
    "The tooling, plain TypeScript run with `tsx`: one folder per subsystem, used in one direction (see [The tooling's folders]()).",
  ],
  ['The browser test of the docs site', 'The browser tests of the docs site'],
  // The hold at the open-files limit closes one of the largest group of connections, never a body keeping the pace.
  [
    'past it, a new connection closes the connection idle the longest, and is refused only when every connection is being served,',
    'past it, a new connection closes one that has sent no request within a second of opening, else one of the largest group: the connections that have sent no request yet and those kept alive between their requests (the longest waiting of either), and those whose body is arriving slower than 16 KiB a second since its headers (the slowest). It is refused only when every connection is being served or sending its body at least that fast,',
  ],
  ['`scripts/interop/interop.ts` explains', '`scripts/interop/specmatic-sandbox.ts` explains'],
  // An abandoned delivery claim uses up its attempt (it made the same attempt again).
  [
    'when the lease runs out, and another makes that attempt under the same number (an attempt is numbered by the attempts recorded, not by the claims, so a killed instance never uses up a scheduled call)',
    "when the lease runs out: the next claim logs the dead instance's attempt as a timeout (it may have reached the endpoint) and makes the next attempt on the schedule, so an endpoint never gets more calls than the schedule allows and no attempt number repeats",
  ],
  [
    'and reached every failing endpoint on the whole schedule (`deliverySchedule().calls` calls, each recorded): never fewer, and more only by a call the log shows made again;',
    'and was logged for every failing endpoint as the whole schedule (attempts 1 to `deliverySchedule().calls`, none repeated, each recorded or a claim of the killed instance logged as a timeout), with every recorded attempt reaching it and never more calls than the schedule;',
  ],
  // The sandbox command refuses a busy port, or an address the machine does not have, before the store opens.
  [
    'a busy port, a PostgreSQL server',
    'a busy port or an address the machine does not have (both refused at once, before the store opens), a PostgreSQL server',
  ],
  // The tests that install the packed packages into a new project moved into `npm run test:e2e`.
  [
    '), and the consumer test (`scripts/checks/consumer.e2e.test.ts`: the setup and every TypeScript block of the README and the guides, as written, in a new project from the packed tarballs, with TypeScript 7 and 5.9, against `npx ramp-api-sandbox`; and the install budget of `ramp-api`). From',
    '). The consumer test, which installs the packed packages into a new project, runs in `npm run test:e2e`. From',
  ],
  [
    'with `src/**/*.e2e.test.ts`).',
    'with `src/**/*.e2e.test.ts` and the new-project tests `scripts/checks/*.e2e.test.ts`).',
  ],
  [
    "(the docs site and the sandbox's pages).",
    "(the docs site and the sandbox's pages in Chromium, and the packed packages in a new project).",
  ],
  // The suites on PostgreSQL moved into `npm run test:postgres`.
  [
    'runs the same machinery with 3 clients for 3 s in `npm test` (skipped with the PostgreSQL suites where PostgreSQL is missing), and shows',
    'runs the same machinery with 3 clients for 3 s in `npm run test:postgres`, and shows',
  ],
  ['they start a throwaway cluster from', '`npm run test:postgres` starts a throwaway cluster from'],
  [
    'and run the flow tests, the delivery tests and `npm run contract:sandbox` on PGlite and on it.',
    'and runs the flow tests, the delivery tests and the contract suite on it, which `npm test` runs on PGlite.',
  ],
  [
    'Without it those suites run on PGlite only and say why; under `CI` a missing PostgreSQL is a failure (`.ci/run` installs it).',
    'Without it `npm run test:postgres` fails and says what to install; `.ci/run` installs it.',
  ],
  [
    '`npm test` runs the same on both stores (`contract-tests/sandbox.test.ts`) and fails',
    '`npm test` runs the same on PGlite and `npm run test:postgres` on PostgreSQL (`contract-tests/sandbox.test.ts`); each fails',
  ],
  ['Not part of `npm test`, which runs it small.', '`npm run test:postgres` runs it small.'],
  [
    "and meanwhile started the run's PostgreSQL cluster and, once the bundles are written, the Prism mocks): the description checks, staleness of the generated files, the compat gate, client, fault-matrix and webhook tests, the contract suite",
    'and meanwhile, once the bundles are written, started the Prism mocks): the description checks, staleness of the generated files, the compat gate, client, fault-matrix and webhook tests, the sandbox suites on PGlite, the contract suite',
  ],
  ['and against the sandbox on both stores (what', 'and against the sandbox (what'],
  [
    '`contract-tests/sandbox.test.ts`). The consumer test, which installs',
    '`contract-tests/sandbox.test.ts`). The same sandbox suites on PostgreSQL run in `npm run test:postgres`, the respect journeys with them, and the commands run as processes in `npm run test:commands`. The consumer test, which installs',
  ],
  // Figures measured again (the third time).
  [
    "From a fresh clone on a quiet 2-core machine it took 91 s (vitest's Duration, 931 tests, the build in its setup included; 80 s with the 817 tests before the console, the ledger and the sandbox's protections), and, with 817 tests, 91 to 131 s with both cores kept busy by other work.",
    "From a fresh clone on a quiet 2-core machine it took 195 s (vitest's Duration, 1,337 tests, the build in its setup included), far over its 90 s goal; with 931 tests it took 91 s, and 80 s with the 817 tests before the console, the ledger and the sandbox's protections.",
  ],
  // Figures measured again (the fourth time), after the suites on PostgreSQL and the commands moved out.
  [
    "From a fresh clone on a quiet 2-core machine it took 195 s (vitest's Duration, 1,337 tests, the build in its setup included), far over its 90 s goal; with 931 tests it took 91 s, and 80 s",
    "From a fresh clone on a quiet 2-core machine it took 100 s (vitest's Duration, 1,205 tests, the build in its setup included; 116 s for the whole command), still over its 90 s goal; before the suites on PostgreSQL and the commands moved out it took 170 s (1,337 tests), with 931 tests 91 s, and 80 s",
  ],
  // Figures measured again (the fifth time), after the sandbox suites reused their stores.
  [
    "From a fresh clone on a quiet 2-core machine it took 100 s (vitest's Duration, 1,205 tests, the build in its setup included; 116 s for the whole command), still over its 90 s goal; before the suites",
    "From a fresh clone on a quiet 2-core machine it took 77 s (vitest's Duration, 1,206 tests, the build in its setup included; 88 s for the whole command, 75 to 85 s on a warm tree), under its 90 s goal by little (the host's speed moves it by up to a fifth); before the sandbox suites' stores were made lighter and reused it took 100 s, before the suites",
  ],
  // npm test's processes ask for transparent huge pages.
  [
    '`npm run test:e2e`. From a fresh clone',
    "`npm run test:e2e`. Its processes ask glibc's malloc for transparent huge pages (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`): on small virtual machines a page fault is dear, and this takes about a sixth off the run's system time (BENCHMARKS.md). From a fresh clone",
  ],
  // Figures measured again (the sixth time), with the huge pages.
  [
    "From a fresh clone on a quiet 2-core machine it took 77 s (vitest's Duration, 1,206 tests, the build in its setup included; 88 s for the whole command, 75 to 85 s on a warm tree), under its 90 s goal by little (the host's speed moves it by up to a fifth); before",
    "From a fresh clone on a quiet 2-core machine it took 69 to 80 s (vitest's Duration, 1,206 tests, the build in its setup included; 79 to 92 s for the whole command, 82 s the median of five runs; 73 to 81 s on a warm tree), under its 90 s goal in four runs of five (the host's speed moves it by up to a fifth); before",
  ],
  // The interrupted runs' time measured again, with the attack cases beside them.
  [
    'About a minute; not part of `npm test`; CI runs it.',
    'Three to five minutes on two cores (187 s and 272 s in two CI runs of a fresh clone); not part of `npm test`; CI runs it.',
  ],
  // A new connection at the limit closes the longest arriving slow body, not the slowest.
  [
    'since its headers (the slowest).',
    'since its headers (the longest arriving: a request whose head has just come, its body a moment behind, is the newest of them, never the first closed).',
  ],
  // npm test runs lint and the type check as its first test file, beside the other tests, not before them.
  [
    '# lint (zero problems) and type-check, side by side, then every test (the contract suite',
    '# every test, lint (zero problems) and the type check among them (the contract suite',
  ],
  [
    '`npm run lint` and `npm run typecheck` side by side, then vitest (after its global setup, `scripts/test-setup/run.ts`, has run `npm run build`, so the tests that start processes start the built packages, and meanwhile, once the bundles are written, started the Prism mocks): the description checks',
    "vitest, after its global setup (`scripts/test-setup/run.ts`) has run `npm run build`, so the tests that start processes start the built packages, and meanwhile, once the bundles are written, started the Prism mocks. Its first file, `scripts/checks/static-checks.test.ts`, runs `npm run lint`'s four steps and `npm run typecheck` as processes, one after another, while the other worker runs the rest (on 2 cores this ends sooner than the same checks before the tests): the description checks",
  ],
  [
    'zero problems allowed), then vitest, which bundles both descriptions',
    'zero problems allowed) and bundles both descriptions',
  ],
  // Figures measured again (the seventh time), as the whole command's time on a warm tree, without their history.
  [
    "From a fresh clone on a quiet 2-core machine it took 69 to 80 s (vitest's Duration, 1,206 tests, the build in its setup included; 79 to 92 s for the whole command, 82 s the median of five runs; 73 to 81 s on a warm tree), under its 90 s goal in four runs of five (the host's speed moves it by up to a fifth); before the sandbox suites' stores were made lighter and reused it took 100 s, before the suites on PostgreSQL and the commands moved out it took 170 s (1,337 tests), with 931 tests 91 s, and 80 s with the 817 tests before the console, the ledger and the sandbox's protections.",
    "On a warm tree on a quiet 2-core machine the whole command took 85 to 97 s (median 91 s of nine runs, 1,450 tests, the build in its setup and the static checks included); the host's speed moves it by up to a fifth.",
  ],
];
/** Renames a path of the tooling that moved. */
const renamed = (text: string) => moves.reduce((t, [from, to]) => t.replaceAll(from, to), text);
/** A table key as the rewordings left it, white space squashed (keys keep their link targets). */
const reworded = (key: string) => rewordings.reduce((t, [from, to]) => t.replace(from, to), squash(renamed(key)));
const reword = (text: string) => rewordings.reduce((t, [from, to]) => t.replace(from, to), comparable(text));

/**
 * Who runs each line of a named shell block: a file and what in it runs that line. A line of a named block
 * with no runner here fails the test below, so a command added to a guide needs a test or a CI step first.
 */
const runners: Record<string, Record<string, [file: string, needle: string]>> = {
  setup: {
    'npm ci': ['.ci/run', '\nnpm ci '],
    'npm start': ['scripts/checks/processes.command.test.ts', "script('start'"],
    'npm test': ['.ci/run', '\nnpm test\n'],
  },
  'consumer-setup': {
    'npm init -y': ['scripts/checks/consumer.e2e.test.ts', "marked('consumer-setup')"],
    'npm pkg set type=module': ['scripts/checks/consumer.e2e.test.ts', "marked('consumer-setup')"],
    'npm i /path/to/ramp-api/dist/ramp-api-0.1.0.tgz': [
      'scripts/checks/consumer.e2e.test.ts',
      "marked('consumer-setup')",
    ],
    'npm i -D /path/to/ramp-api/dist/ramp-api-sandbox-0.1.0.tgz typescript @types/node': [
      'scripts/checks/consumer.e2e.test.ts',
      "marked('consumer-setup')",
    ],
  },
  'consumer-usage': {
    'npm i -D ts-morph@28.0.0 ajv@8.20.0': ['scripts/checks/consumer.e2e.test.ts', "marked('consumer-usage')"],
    'npx ramp-api usage': ['scripts/checks/consumer.e2e.test.ts', "marked('consumer-usage')"],
  },
  'compat-consumers': {
    'npm run compat -- --consumers usage/': ['scripts/compat/compat.command.test.ts', "compatRun(['--consumers', dir"],
    'npm run compat -- --consumers usage/ --fail-on consumers': [
      'scripts/compat/compat.command.test.ts',
      "'--fail-on'",
    ],
    'npm run compat -- --consumers usage/ --fail-on seen': [
      'scripts/compat/compat.command.test.ts',
      "'--fail-on', 'seen'",
    ],
  },
};

describe('the commands the README and the guides show', () => {
  const shell = files.flatMap((f) =>
    inventory(f.text)
      .codeBlocks.filter((b) => ['sh', 'bash', 'shell', 'console'].includes(b.lang))
      .map((b) => ({ ...b, file: f.path })),
  );

  it('are each run by a test or by CI, or marked illustrative with the reason', () => {
    expect(shell.length).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (const block of shell) {
      const where = `${block.file} line ${block.line}`;
      if (block.illustrative) {
        if (block.illustrative.length < 40) problems.push(`${where}: say why the block is only illustrative`);
        continue;
      }
      const lines = block.code
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line && !line.startsWith('#'));
      const table = block.marker ? runners[block.marker] : undefined;
      if (!table) {
        problems.push(`${where}: neither a block a test runs (<!-- NAME:start -->) nor <!-- illustrative: why -->`);
        continue;
      }
      for (const line of lines) {
        const runner = table[line];
        if (!runner) problems.push(`${where}: nothing runs "${line}"`);
        else if (!readFileSync(join(repoRoot, runner[0]), 'utf8').includes(runner[1]))
          problems.push(`${where}: ${runner[0]} no longer runs "${line}" (${runner[1]})`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the folders the README and the guides write results to', () => {
  it('are ignored by git', () => {
    const written = /--(?:json|junit|out)[ =]+"?([\w.-]+)\//g;
    const folders = [...new Set(files.flatMap((f) => [...f.text.matchAll(written)].map((m) => m[1]!)))].sort();
    expect(folders).toContain('runs');
    const check = spawnSync('git', ['check-ignore', '--no-index', ...folders.map((f) => `${f}/results.json`)], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(check.stdout.trim().split('\n').sort()).toEqual(folders.map((f) => `${f}/results.json`));
  });
});

describe('links', () => {
  it('between the README, the guides and the repository resolve, anchors included', () => {
    const broken: string[] = [];
    const slugsOf = (path: string) =>
      new Set(
        new Lexer()
          .lex(readFileSync(path, 'utf8'))
          .filter((t): t is Tokens.Heading => t.type === 'heading')
          .map((t) => headingSlug(t.text)),
      );
    for (const file of files) {
      for (const [, target] of file.text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const full = path ? resolve(dirname(join(repoRoot, file.path)), path) : join(repoRoot, file.path);
        if (!existsSync(full)) broken.push(`${file.path}: ${target} (no such file)`);
        else if (anchor && full.endsWith('.md') && !slugsOf(full).has(anchor))
          broken.push(`${file.path}: ${target} (no heading ${anchor} in ${relative(repoRoot, full)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the packages' READMEs, as a registry shows them", () => {
  it('link only to absolute addresses or within themselves: outside the repository nothing else resolves', () => {
    const relativeLinks = ['src/client/README.md', 'src/sandbox/README.md'].flatMap((path) =>
      [...readFileSync(join(repoRoot, path), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^(https?:|mailto:|#)/.test(target))
        .map((target) => `${path}: ${target}`),
    );
    expect(relativeLinks).toEqual([]);
  });

  it('say what a user of the sandbox package needs: install, run, the API in code, where faults are reported', () => {
    const text = readFileSync(join(repoRoot, 'src', 'sandbox', 'README.md'), 'utf8');
    for (const needed of [
      'npm i -D ramp-api-sandbox',
      'npx ramp-api-sandbox',
      'startSandbox',
      'createSandboxClient',
      'checkSandbox',
      '`logger`',
    ])
      expect(text, needed).toContain(needed);
    expect(text, "the contributor's map lives in the contributing guide").not.toContain('How the sandbox works');
  });
});
