// Every journey's TypeScript sample compiles against the client's sources under strict TypeScript: each client
// has the operation a step names, and the parameters the sample passes are those the operation takes.
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
    const journeys = readDocJourneys(allApiFamilies().map((api) => ({ api, doc: readBundle(api) })));
    mkdirSync(dir, { recursive: true });
    const fromSource = (specifier: string) => relative(dir, sourceModule(specifier)).replace(/\.ts$/, '.js');
    for (const journey of journeys)
      writeFileSync(join(dir, `${journey.slug}.ts`), journeySample(journey.library, journey, fromSource));
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
