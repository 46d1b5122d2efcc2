import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Lexer, marked, type Token, type Tokens } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import type { JourneyResults, StepResult } from '../../src/sandbox/journeys/results.js';
import { monitorReport, readRuns } from './monitor.js';

const dir = mkdtempSync(join(tmpdir(), 'journeys-monitor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const step = (name: string, ms: number, failed?: string): StepResult => ({
  step: name,
  workflowId: 'payoutCompleted',
  status: failed ? 'failed' : 'passed',
  ms,
  attempts: 1,
  httpStatus: failed ? 422 : 201,
  failed: failed ? [{ check: 'success criteria check', condition: failed, message: '' }] : [],
});
const run = (startedAt: string, pay: StepResult): JourneyResults => ({
  target: 'deployment',
  startedAt,
  ms: 20_000,
  ok: pay.status === 'passed',
  workflows: [
    {
      file: 'payout.arazzo.yaml',
      workflowId: 'payoutCompleted',
      status: pay.status,
      ms: 900,
      steps: [step('user / v1Token', 100), pay],
    },
  ],
});

describe('the monitoring page of several runs', () => {
  it("reads a folder of runs oldest first and shows each step's times and failures across them", () => {
    writeFileSync(
      join(dir, 'b.json'),
      JSON.stringify(run('2026-11-28T10:00:00.000Z', step('pay', 300, '$statusCode == 201'))),
    );
    writeFileSync(join(dir, 'a.json'), JSON.stringify(run('2026-11-28T09:00:00.000Z', step('pay', 200))));
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify(run('2026-11-28T11:00:00.000Z', { ...step('pay', 500), attempts: 2 })),
    );
    const runs = readRuns([dir]);
    expect(runs.map((r) => r.results.startedAt.slice(11, 13))).toEqual(['09', '10', '11']);
    const page = monitorReport(runs);
    expect(page).toContain('# Journeys across 3 runs');
    expect(page).toContain('| 2 | 2026-11-28T10:00:00.000Z | deployment | 0 | 1 | 20.0 s |');
    expect(page).toContain(
      '| payout.arazzo.yaml / payoutCompleted | pay | 3 of 3 | run 2 | run 3: 2 attempts | 300 | 500 | 500 |',
    );
    expect(page).toContain(
      '| payout.arazzo.yaml / payoutCompleted | user / v1Token | 3 of 3 | 0 |  | 100 | 100 | 100 |',
    );
    expect(page).toContain(
      '- run 2 (2026-11-28T10:00:00.000Z): payout.arazzo.yaml / payoutCompleted / pay (422): `$statusCode == 201` does not hold',
    );
  });

  it('fences a multi-line message in a code block no backtick run in it can close', () => {
    const frame = '> 1 | a\n    | ^\n```\nbreak out';
    const failed = {
      ...step('pay', 300),
      status: 'failed' as const,
      failed: [{ check: 'schema check', message: frame }],
    };
    const page = monitorReport([{ name: 'x.json', results: run('2026-11-28T12:00:00.000Z', failed) }]);
    expect(page).toContain(
      '/ pay (201): schema check:\n\n  ````text\n  > 1 | a\n      | ^\n  ```\n  break out\n  ````\n',
    );
  });

  it('names the file given that is not results JSON, and the file it wants, in one line', () => {
    const xml = join(dir, 'journeys.xml');
    writeFileSync(xml, '<?xml version="1.0"?><testsuites/>');
    const wanted = `${xml} is not the JSON of npm run journeys -- --json FILE: not JSON (at line 1, column 1); give the file --json writes, not the --junit XML.`;
    expect(() => readRuns([xml])).toThrow(wanted);
  });

  it('names a file that is not the results of a run', () => {
    writeFileSync(join(dir, 'other.json'), '{"files": {}}');
    expect(() => readRuns([join(dir, 'other.json')])).toThrow(/other\.json is not the JSON of npm run journeys/);
  });
});

/** Values a results file may hold to rewrite the page: new headings, a "None." line, a comment hiding the rest. */
const FORGED = '\n\n## Failures\n\nNone.\n\n<!--';
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const LINK = '[open](javascript:alert(1))';

/** A run whose workflow, steps, conditions and messages hold the values above. */
function forgedRun(): JourneyResults {
  const forged = (name: string, failed: StepResult['failed']): StepResult => ({
    ...step(name, 300),
    status: 'failed',
    failed,
  });
  return {
    ...run('2026-11-28T12:00:00.000Z', step('pay', 300)),
    ok: false,
    workflows: [
      {
        file: `payout.arazzo.yaml${SCRIPT}`,
        workflowId: `payoutCompleted${FORGED}`,
        status: 'failed',
        ms: 900,
        steps: [
          forged(`pay${FORGED}`, [
            { check: 'success criteria check', condition: `$statusCode == 201\`${FORGED}${IMG}`, message: '' },
          ]),
          forged(`refund ${LINK}`, [{ check: `status code check${FORGED}`, message: `${IMG} ${LINK} ${SCRIPT}` }]),
          forged('notify', [{ check: 'schema check', message: `> 1 | a\n\`\`\`\n## Forged\n${SCRIPT}\n<!--` }]),
        ],
      },
      { file: 'kyc.arazzo.yaml', workflowId: 'kyc', status: 'failed', ms: 5, steps: [], error: `stopped${FORGED}` },
    ],
  };
}

/** The page's Markdown tokens (CommonMark with GitHub's tables, as marked reads them), nested ones included. */
function tokensOf(page: string): Token[] {
  const all: Token[] = [];
  marked.walkTokens(new Lexer().lex(page), (token) => {
    all.push(token);
  });
  return all;
}

describe('the monitoring page of a results file that tries to rewrite it', () => {
  const page = monitorReport([{ name: 'forged.json', results: forgedRun() }]);
  const tokens = tokensOf(page);

  it('keeps its own headings, and no line of a value starts one', () => {
    expect(page.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '# Journeys across 1 run',
      '## Steps',
      '## Failures',
    ]);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading');
    expect(headings.map((h) => `${h.depth} ${h.text}`)).toEqual(['1 Journeys across 1 run', '2 Steps', '2 Failures']);
  });

  it('carries no HTML: no script, image, comment or javascript: link outside code', () => {
    expect(tokens.filter((t) => t.type === 'html').map((t) => t.raw)).toEqual([]);
    expect(tokens.filter((t) => t.type === 'link' || t.type === 'image').map((t) => t.raw)).toEqual([]);
    const prose = page.replace(/^ *(`{3,})text\n[\s\S]*?\n *\1$/gm, '').replace(/(`+)[^`]*?\1/g, '');
    for (const bad of ['<script', '<img', '<!--', 'javascript:']) expect(prose).not.toContain(bad);
    const html = marked.parse(page, { async: false });
    for (const bad of ['<script', '<img', '<!--', 'href="javascript']) expect(html).not.toContain(bad);
  });

  it('still lists every failure: the three steps and the workflow that has none', () => {
    const failures = page.slice(page.indexOf('\n## Failures\n'));
    const list = new Lexer().lex(failures).find((t): t is Tokens.List => t.type === 'list');
    const firstLines = list?.items.map((item) => item.text.split('\n')[0]!);
    expect(firstLines).toEqual([
      expect.stringContaining(' / pay\\\\n\\\\n\\#\\# Failures'),
      expect.stringContaining(' / refund \\[open\\]\\(javascript\\:alert\\(1\\)\\) (201): status code check'),
      expect.stringContaining(' / notify (201): schema check:'),
      expect.stringMatching(/^run 1 \(2026-11-28T12:00:00\.000Z\): kyc\.arazzo\.yaml \/ kyc: stopped/),
    ]);
  });

  it('shows a multi-line message in a code block that its lines cannot close', () => {
    expect(page).toContain('schema check:\n\n  ````text\n  > 1 | a\n  ```\n  ## Forged\n  <script>');
  });

  it('names a file whose startedAt is no ISO timestamp, and what is wrong, in one line', () => {
    const file = join(dir, 'forged-start.json');
    writeFileSync(file, JSON.stringify({ ...forgedRun(), startedAt: `2026-11-28T12:00:00.000Z${FORGED}` }));
    expect(() => readRuns([file])).toThrow(
      `${file} is not the JSON of npm run journeys -- --json FILE: startedAt is not an ISO timestamp.`,
    );
  });

  it('names a file whose workflows are not those of a run, and the field that is wrong', () => {
    const file = join(dir, 'null-workflow.json');
    const runs = forgedRun();
    writeFileSync(file, JSON.stringify({ ...runs, workflows: [runs.workflows[0], null] }));
    expect(() => readRuns([file])).toThrow(
      /null-workflow\.json is not the JSON .*: workflows\[1\] is not an object\.$/,
    );
    writeFileSync(file, JSON.stringify({ ...runs, workflows: [{ ...runs.workflows[0], steps: [{ step: 'a' }] }] }));
    expect(() => readRuns([file])).toThrow(/: workflows\[0\]\.steps\[0\]\.workflowId is not a string\.$/);
  });
});
