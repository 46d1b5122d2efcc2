// The static checks of `npm test`, each a process of its own: `npm run lint`'s four steps (the descriptions by
// Redocly, the code by Biome, the direction of imports by dependency-cruiser, what nothing uses by knip) and the
// type check. They run as the first file of the run (scripts/test-setup/sequencer.ts), on one of its two workers
// while the other runs the tests, so that no check holds both workers back. A failing check fails its test with the
// tool's report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptRunner } from '../../src/testing/npm-run.js';
import { repoRoot } from '../openapi/apis.js';

const runs = scriptRunner();
afterAll(runs.stopAll);

/** The steps of `npm run lint` (each `npm run <step>`), then the type check. */
function checks(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const steps = [...(scripts.lint ?? '').matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
  return [...steps, 'typecheck'];
}

describe('the static checks', () => {
  it('are the four steps of npm run lint and the type check', () => {
    expect(checks()).toEqual(['lint:openapi', 'lint:code', 'lint:deps', 'lint:unused', 'typecheck']);
  });

  // One after another: each already uses more than a core for part of its run.
  it.each(checks())(
    'npm run %s passes',
    async (name) => {
      const run = runs.script(name);
      const code = await run.exited;
      const { out, err } = run.output();
      expect(code, `npm run ${name} failed:\n${out}${err}`).toBe(0);
    },
    180_000,
  );
});
