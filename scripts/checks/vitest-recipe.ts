// The vitest recipe of "The sandbox in your tests" (docs/guides/sandbox-in-tests.md) as files of a project: its
// config, global setup and test files, each written where its first line says. The tests that run the recipe, and
// the team's CI job that runs it as a team's own tests, make their projects from it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { guidesDir, inventory, markedBlock } from '../site/guides.js';

/** The guide's vitest blocks (each marked `sandbox-vitest-...`), in the guide's order. */
export const VITEST_BLOCKS = inventory(readFileSync(join(guidesDir, 'sandbox-in-tests.md'), 'utf8')).codeBlocks.flatMap(
  (block) => (block.marker?.startsWith('sandbox-vitest-') ? [block.marker] : []),
);

/** Writes each block into `project` where its first line says; returns the files, relative to `project`. */
export function writeVitestRecipe(project: string): string[] {
  return VITEST_BLOCKS.map((name) => {
    const code = markedBlock(name, 'ts').code;
    const file = /^\/\/ ([\w./-]+\.ts)/.exec(code)?.[1];
    if (!file) throw new Error(`The ${name} block does not start with the name of its file.`);
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), code);
    return file;
  });
}
