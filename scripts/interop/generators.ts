// The generators `npm run interop` tries: orval (fetch and axios), @hey-api/openapi-ts and swagger-typescript-api,
// each writing a client for every bundle, compiled under strict TypeScript.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiFamily, repoRoot } from '../openapi/apis.js';
import { bin, firstLines, type Row, run, versionOf } from './tools.js';

interface Generator {
  tool: string;
  pkg: string;
  /** The command line that writes the client for one bundle into `out`. */
  command: (bundle: string, out: string, api: string) => [string, string[]];
}

const GENERATORS: Generator[] = [
  {
    tool: 'orval (fetch client)',
    pkg: 'orval',
    command: (bundle, out, api) => [
      bin('orval'),
      ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'fetch'],
    ],
  },
  {
    tool: 'orval (axios client)',
    pkg: 'orval',
    command: (bundle, out, api) => [
      bin('orval'),
      ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'axios'],
    ],
  },
  {
    tool: '@hey-api/openapi-ts',
    pkg: '@hey-api/openapi-ts',
    command: (bundle, out, api) => [
      bin('openapi-ts'),
      ['--input', bundle, '--output', join(out, api), '--no-log-file'],
    ],
  },
  {
    tool: 'swagger-typescript-api',
    pkg: 'swagger-typescript-api',
    command: (bundle, out, api) => [
      bin('swagger-typescript-api'),
      ['generate', '--path', bundle, '--output', join(out, api), '--name', `${api}.ts`],
    ],
  },
];

/** Strict settings a consuming team would use; modules resolve from this repository's node_modules (axios). */
const strictTsconfig = (include: string) => ({
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    skipLibCheck: true,
    types: [],
    baseUrl: '.',
    paths: { '*': [join(repoRoot, 'node_modules', '*')] },
  },
  include: [`${include}/**/*.ts`],
});

export async function generators(apis: ApiFamily[], work: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, generator] of GENERATORS.entries()) {
    const out = join(work, `client-${i}`);
    const version = versionOf(generator.pkg);
    const generated: string[] = [];
    for (const api of apis) {
      const [command, commandArgs] = generator.command(join(work, `${api.name}.json`), out, api.name);
      const result = await run(command, commandArgs, { cwd: work });
      if (result.code === 0) generated.push(api.name);
      else
        rows.push({
          tool: generator.tool,
          version,
          api: api.name,
          ok: false,
          result: `generation failed (exit ${result.code})`,
          detail: firstLines(result.output),
        });
    }
    if (!generated.length) continue;
    const tsconfig = join(work, `tsconfig.client-${i}.json`);
    writeFileSync(tsconfig, JSON.stringify(strictTsconfig(`client-${i}`), null, 2));
    const compiled = await run(bin('tsc'), ['-p', tsconfig], { cwd: work });
    const errors = (compiled.output.match(/error TS\d+/g) ?? []).length;
    for (const api of generated) {
      const mine = compiled.output.split('\n').filter((l) => l.includes(`${api}`) && l.includes('error TS'));
      const ok = compiled.code === 0;
      rows.push({
        tool: generator.tool,
        version,
        api,
        ok,
        result: ok
          ? 'generated; compiles under strict TypeScript'
          : `generated; does not compile (${mine.length || errors} TypeScript errors)`,
        detail: ok ? undefined : firstLines(mine.join('\n') || compiled.output),
      });
    }
  }
  return rows;
}
