// Every journey's TypeScript sample compiles against the client's sources under strict TypeScript, without `as never`:
// each client has the operation a step names, and the parameters and bodies the sample passes are those the
// client's types take.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readDocJourneys } from '../journeys/journey-docs.js';
import { allApiFamilies, readBundle, repoRoot } from '../openapi/apis.js';
import { journeySample } from './journey-sample.js';
import { sourceModule } from './samples.js';

const run = promisify(execFile);
const dir = join(repoRoot, 'dist', `journey-samples-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the journeys’ TypeScript samples', () => {
  it('compile under strict TypeScript against the clients', async () => {
    const apis = allApiFamilies().map((api) => ({ api, doc: readBundle(api) }));
    const journeys = readDocJourneys(apis);
    const docs = Object.fromEntries(apis.map(({ api, doc }) => [api.name, doc]));
    mkdirSync(dir, { recursive: true });
    const fromSource = (specifier: string) => relative(dir, sourceModule(specifier)).replace(/\.ts$/, '.js');
    const untyped: string[] = [];
    for (const journey of journeys) {
      const sample = journeySample(journey.library, journey, docs, fromSource);
      // The bodies and the inputs sent whole as bodies are typed by the client's own types: no cast turns that off.
      for (const found of sample.matchAll(/\bas never\b|\bas any\b|[:<,(|&]\s*any\b|\bany\s*[;,>)\]}|&]/g))
        untyped.push(`${journey.slug}: ${found[0]}`);
      writeFileSync(join(dir, `${journey.slug}.ts`), sample);
    }
    expect(untyped).toEqual([]);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: relative(dir, join(repoRoot, 'tsconfig.json')),
        include: ['*.ts'],
        compilerOptions: { noEmit: true },
      }),
    );
    const tsc = join(repoRoot, 'scripts', 'toolchain', 'node_modules', '.bin', 'tsc');
    const result = await run(tsc, ['-p', dir], { cwd: repoRoot }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
    expect(journeys.length).toBeGreaterThan(0);
  }, 60_000);
});
