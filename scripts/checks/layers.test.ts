// One direction of use between the tooling's folders (the rules in .dependency-cruiser.cjs, drawn in
// docs/guides/contributing.md): an import that runs the other way is caught. That the repository keeps to them is
// `npm run lint:deps`, which `npm test` runs (static-checks.test.ts; every rule's severity is an error).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ICruiseOptions, ICruiseResult } from 'dependency-cruiser';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';

const configFile = join(repoRoot, '.dependency-cruiser.cjs');

/** The rules broken in the folders given, as `rule: from -> to`, cruised from `baseDir`. */
async function violations(baseDir: string, folders: string[], options: ICruiseOptions): Promise<string[]> {
  const { output } = await cruise(folders, { ...options, baseDir, outputType: 'json' });
  const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

/** Loads the repository's rules without its tsconfig (a fixture tree has none). */
async function rules(): Promise<ICruiseOptions> {
  const { tsConfig: _unused, ...options } = await extractDepcruiseOptions(configFile);
  return options;
}

const guide = join(repoRoot, 'docs', 'guides', 'contributing.md');

/** The folders each folder of scripts/ may import, as the guide's table of the tooling's folders says. */
function guideTable(): Record<string, string[]> {
  const section = readFileSync(guide, 'utf8').split("## The tooling's folders")[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => /^\| `[a-z-]+\/` \|/.test(line));
  return Object.fromEntries(
    rows.map((row) => {
      const cells = row.split('|').map((cell) => cell.trim());
      const allowed = cells[4] === 'nothing' ? [] : (cells[4] ?? '').split(',').map((name) => name.trim());
      return [cells[1]!.replace(/`|\//g, ''), allowed];
    }),
  );
}

/** The same, as the rules of .dependency-cruiser.cjs enforce it. */
function ruleTable(): Record<string, string[]> {
  const config = createRequire(import.meta.url)(configFile) as {
    forbidden: { from: { path: string }; to: { pathNot?: string } }[];
  };
  const entries = config.forbidden.flatMap(({ from, to }) => {
    const folder = /^\^scripts\/([a-z-]+)\/$/.exec(from.path)?.[1];
    const allowed = /^\^scripts\/\(([a-z|-]+)\)\/$/.exec(to.pathNot ?? '')?.[1]?.split('|');
    return folder && allowed ? [[folder, allowed.filter((name) => name !== folder)] as const] : [];
  });
  return Object.fromEntries(entries);
}

describe('the map of scripts/ in the contributing guide', () => {
  it('names every folder of scripts/, with the folders the import rules let it use', () => {
    const folders = readdirSync(join(repoRoot, 'scripts'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'toolchain')
      .map((entry) => entry.name)
      .sort();
    const { 'contract-tests': _suite, ...table } = guideTable();
    expect(Object.keys(table).sort()).toEqual(folders);
    expect(table).toEqual(ruleTable());
  });
});

describe('the direction of use between folders', () => {
  it('is checked over the repository by `npm run lint:deps`, which fails on any rule broken: each is an error', () => {
    const config = createRequire(import.meta.url)(configFile) as { forbidden: { name: string; severity: string }[] };
    expect(config.forbidden.length).toBeGreaterThan(0);
    expect(config.forbidden.filter((rule) => rule.severity !== 'error').map((rule) => rule.name)).toEqual([]);
  });

  const fixture = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(fixture, file)), { recursive: true });
    writeFileSync(join(fixture, file), text);
  };

  it('catches an import that runs upwards, one from scripts/ into contract-tests/, and a cycle', async () => {
    write('scripts/openapi/apis.ts', "import { page } from '../site/site.js';\nexport const apis = page;\n");
    write('scripts/site/site.ts', "import { apis } from '../openapi/apis.js';\nexport const page = apis;\n");
    write('scripts/journeys/respect.ts', "import { x } from '../../contract-tests/targets.js';\nexport const y = x;\n");
    write('contract-tests/targets.ts', 'export const x = 1;\n');
    write('contract-tests/run.ts', "import { y } from '../scripts/journeys/respect.js';\nexport const z = y;\n");
    const found = await violations(fixture, ['scripts', 'contract-tests'], await rules());
    expect(found).toEqual(
      expect.arrayContaining([
        'scripts-openapi-imports-only-itself: scripts/openapi/apis.ts -> scripts/site/site.ts',
        'scripts-journeys-imports-only-openapi: scripts/journeys/respect.ts -> contract-tests/targets.ts',
        'contract-tests-imports-only-openapi-and-build: contract-tests/run.ts -> scripts/journeys/respect.ts',
        'no-cycles: scripts/openapi/apis.ts -> scripts/site/site.ts',
      ]),
    );
  }, 60_000);
});
