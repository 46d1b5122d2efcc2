// The table of what each benchmark measures is the one list: the README's is rendered from it, every file it names
// exists, and every npm script of the folder is in it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';
import { benchmarks, catalogTable } from './catalog.js';

const folder = join(repoRoot, 'scripts', 'bench');
const readmePath = join(folder, 'README.md');
const START = '<!-- catalog:start (rendered from catalog.ts) -->';
const END = '<!-- catalog:end -->';

describe('the catalog of benchmarks (catalog.ts)', () => {
  it('is the list in scripts/bench/README.md', () => {
    const readme = readFileSync(readmePath, 'utf8');
    const block = `${START}\n${catalogTable()}\n${END}`;
    const current = readme.includes(START) ? readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length) : '';
    if (process.env.UPDATE_BENCH_CATALOG === '1') writeFileSync(readmePath, readme.replace(current, block));
    else
      expect(
        current,
        'the README is stale: run `UPDATE_BENCH_CATALOG=1 npx vitest run scripts/bench/catalog.test.ts`',
      ).toBe(block);
  });

  it('names files that exist, and every npm script that runs a benchmark of this folder', () => {
    for (const file of benchmarks.flatMap((b) => b.files)) expect(existsSync(join(folder, file)), file).toBe(true);
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const ours = Object.keys(scripts).filter((name) => scripts[name]!.includes('scripts/bench/'));
    const named = new Set(benchmarks.map((b) => /^npm run (\S+)/.exec(b.command)![1]));
    expect(new Set(ours)).toEqual(named);
  });

  it('leaves no file of the folder out of the README', () => {
    const readme = readFileSync(readmePath, 'utf8');
    for (const file of readdirSync(folder).filter((f) => f !== 'README.md'))
      expect(readme.includes(file), file).toBe(true);
  });
});
