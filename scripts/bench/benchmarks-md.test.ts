// The bench still prints what BENCHMARKS.md quotes: every table BENCHMARKS.md holds (the hand-written design
// figures aside) has a header the bench's code prints, and the bench prints no table BENCHMARKS.md lacks; each
// printed row has its header's columns; and the hand-written prose gives the bench's own settings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { clientTables, usageTable } from './benchmarks-md.js';
import type { ClientPart } from './client-bench.js';
import { BODY } from './client-calls.js';
import { type Row, TRIM, TURNS } from './client-turns.js';
import { summarize } from './harness.js';
import { twoInstancesText } from './postgres-write-bench.js';
import { type LoadRow, sandboxTable } from './sandbox-bench.js';
import { startTable } from './start-bench.js';
import { WRITES, writeTable } from './write-bench.js';

const s = summarize([1, 2, 3]);
const row: Row = {
  section: 'in-process, stub fetch',
  name: 'openapi-fetch',
  reference: false,
  us: s,
  gcUs: 1,
  gcCalls: 0.1,
  ratio: s,
  ratioAll: s,
  stalls: { calls: 0.01, time: 0.02 },
};
const client = {
  rows: [row, { ...row, name: 'openapi-fetch + auth middleware', reference: true }],
  loopback: { rows: [], sent: 2, answered: 2 },
  breakdown: [{ place: 'openapi-fetch', us: 1 }],
  allocated: { middleware: { total: 10, own: [] }, ramp: { total: 11, own: [{ place: 'x', bytes: 2 }] } },
  flight: { concurrent: 1000, ok: 1000, tokenRequests: 1 },
  sizes: [{ label: 'openapi-fetch alone', minified: 1, gzipped: 1 }],
} satisfies ClientPart;
const load: LoadRow = {
  target: 'sandbox',
  operation: 'listBanks',
  concurrency: 1,
  requests: 1,
  perSecond: 1,
  p50ms: 1,
  p99ms: 2,
  failures: 0,
  toPrism: s,
};
const compared = { name: 'usage', turns: [1], figure: s, ratio: s, toFloor: s };
const printed = [
  ...clientTables(client),
  '',
  ...sandboxTable([load]),
  '',
  ...writeTable([load], [{ variant: 'floor', transactions: 1, perSecond: 1, turns: s }]),
  '',
  ...twoInstancesText({ one: 1, two: 1, ratio: s, failures: 0 }).lines,
  '',
  ...startTable({ rows: [{ name: 'x', ready: 'y', ms: s }], load: { before: 0, after: 0 } }, 1),
  '',
  ...usageTable([compared, compared, compared], 'commit abc'),
];

/** Each table's header line, with the lines of its rows. */
function tables(lines: string[]): { header: string; rows: string[] }[] {
  const found: { header: string; rows: string[] }[] = [];
  for (const [i, header] of lines.entries()) {
    if (!header.startsWith('| ') || !/^\| --- (\| --- )*\|$/.test(lines[i + 1] ?? '')) continue;
    const rows: string[] = [];
    for (let j = i + 2; lines[j]?.startsWith('| '); j++) rows.push(lines[j]!);
    found.push({ header, rows });
  }
  return found;
}
const cells = (line: string) => line.split(' | ').length;

describe('BENCHMARKS.md and what the bench prints', () => {
  const quoted = readFileSync(join(repoRoot, 'BENCHMARKS.md'), 'utf8')
    .replace(/<!-- design-figures:start -->[\s\S]*<!-- design-figures:end -->/, '')
    .split('\n');

  it('every table BENCHMARKS.md quotes is one the bench prints, with the same columns', () => {
    expect(new Set(tables(printed).map((t) => t.header))).toEqual(new Set(tables(quoted).map((t) => t.header)));
  });

  it('every row the bench prints has its header columns', () => {
    for (const { header, rows } of tables(printed)) for (const r of rows) expect(cells(r), r).toBe(cells(header));
  });

  it("gives the bench's settings in its prose, and marks every part the bench rewrites", () => {
    const prose = quoted.join(' ').replace(/\s+/g, ' ');
    for (const said of [
      `${Buffer.byteLength(BODY)} bytes`,
      `into ${TURNS} turns`,
      `slowest ${TRIM * 100}%`,
      WRITES.join(', '),
    ])
      expect(prose).toContain(said);
    for (const part of ['run', 'client', 'writes', 'start-times', 'usage', 'targets'])
      expect(prose).toMatch(new RegExp(`<!-- ${part}:start -->.*<!-- ${part}:end -->`));
  });
});
