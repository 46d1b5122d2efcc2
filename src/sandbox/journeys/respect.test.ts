import { describe, expect, it } from 'vitest';
import { perFile, type RespectFile } from './respect.js';

const file = (name: string, workflows: string[]): RespectFile => ({
  file: `/repo/openapi/workflows/${name}`,
  workflows,
  movesTheClock: false,
});
const summary = (name: string, passed: number, failed = 0) =>
  [
    `  Running workflow ${name} / one`,
    `  Summary for ${name}`,
    `  Workflows: ${failed ? `${failed} failed, ` : ''}${passed} passed, ${passed + failed} total`,
    `  Time: 12ms`,
    '',
  ].join('\n');
const files = [file('a.arazzo.yaml', ['one', 'two']), file('b.arazzo.yaml', ['three'])];

describe("one respect process's output, per file", () => {
  it('gives each file its own steps and summary, passed when the process passed', () => {
    const output = summary('a.arazzo.yaml', 2) + summary('b.arazzo.yaml', 1);
    const [a, b] = perFile(files, { ok: true, ms: 5, output });
    expect(a).toMatchObject({ file: 'a.arazzo.yaml', workflows: ['one', 'two'], ok: true, ms: 5 });
    expect(a!.output).toContain('Summary for a.arazzo.yaml');
    expect(a!.output).not.toContain('b.arazzo.yaml');
    expect(b).toMatchObject({ file: 'b.arazzo.yaml', ok: true });
    expect(b!.output).not.toContain('a.arazzo.yaml');
  });

  it('blames the file whose summary counts a failure, and only that one', () => {
    const output = summary('a.arazzo.yaml', 2) + summary('b.arazzo.yaml', 0, 1);
    expect(perFile(files, { ok: false, ms: 5, output }).map((r) => r.ok)).toEqual([true, false]);
  });

  it('fails every file when the process failed and no summary says why', () => {
    const output = `${summary('a.arazzo.yaml', 2) + summary('b.arazzo.yaml', 1)}Error: something after the summaries\n`;
    const runs = perFile(files, { ok: false, ms: 5, output });
    expect(runs.map((r) => r.ok)).toEqual([false, false]);
    expect(runs[1]!.output).toContain('Error: something after the summaries');
  });

  it('fails a file that has no summary, with all the process printed', () => {
    const output = `${summary('a.arazzo.yaml', 2)}Error: respect stopped\n`;
    const [a, b] = perFile(files, { ok: false, ms: 5, output });
    expect(a!.ok).toBe(true);
    expect(b).toMatchObject({ ok: false, output });
  });
});
