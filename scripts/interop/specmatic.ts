// Specmatic's contract tests in `npm run interop` against a Prism mock of each of the service's bundles (from the
// examples, and generative), and the summary line every Specmatic run ends with.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiFamily, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { startPrism } from '../openapi/prism.js';
import { firstLines, type Row, run, versionOf } from './tools.js';

/** Specmatic's summary line: `Tests run: 14, Successes: 14, Failures: 0, WIP: 0, Errors: 0`. */
export function specmaticCounts(output: string) {
  const match = [
    ...output.matchAll(/Tests run: (\d+), Successes: (\d+), Failures: (\d+)(?:, WIP: (\d+))?, Errors: (\d+)/g),
  ].at(-1);
  return match
    ? { tests: Number(match[1]), passed: Number(match[2]), failed: Number(match[3]) + Number(match[5]) }
    : undefined;
}

export async function specmatic(apis: ApiFamily[], work: string, noGenerative: boolean): Promise<Row[]> {
  const jar = join(repoRoot, 'node_modules', 'specmatic', 'specmatic.jar');
  const version = versionOf('specmatic');
  const java = await run('java', ['-version']);
  if (java.code !== 0) {
    return [
      {
        tool: 'Specmatic',
        version,
        api: 'both',
        ok: false,
        result: 'not run: no `java` on PATH (apt-get install -y default-jre-headless)',
        detail: firstLines(java.output),
      },
    ];
  }
  const modes = noGenerative ? [false] : [false, true];
  const rows: Row[] = [];
  // The service's two families: Prism stands in for the service. The control API is the sandbox's own, not the
  // service's; a Prism mock of it proves nothing about the sandbox (and Specmatic's answers from Prism's
  // examples fail where the examples do not chain), so it is not run here.
  for (const api of apis.filter((a) => a.name !== SANDBOX_FAMILY)) {
    // Prism watches the file it serves: serve a copy, not dist/ (which bundling rewrites).
    const served = join(work, `served-${api.name}.json`);
    copyFileSync(join(work, `${api.name}.json`), served);
    const prism = await startPrism({ bundle: served });
    try {
      for (const generative of modes) {
        const result = await run(
          'java',
          ['-jar', jar, 'test', join(work, `${api.name}.json`), `--testBaseURL=${prism.url}`],
          {
            cwd: work,
            env: { SPECMATIC_DISABLE_TELEMETRY: 'true', SPECMATIC_GENERATIVE_TESTS: String(generative) },
            timeoutMs: 900_000,
          },
        );
        const counts = specmaticCounts(result.output);
        const mode = generative ? 'generative tests' : 'tests from the examples';
        const ok = result.code === 0 && !!counts && counts.failed === 0 && counts.tests > 0;
        const rules = [...new Set(result.output.match(/OAS\d{4}[^\n]*/g) ?? [])];
        rows.push({
          tool: `Specmatic (${mode}) against Prism`,
          version,
          api: api.name,
          ok,
          result: counts
            ? `${counts.tests} tests, ${counts.passed} passed, ${counts.failed} failed`
            : `no summary (exit ${result.code})`,
          detail: ok
            ? undefined
            : firstLines(
                [...rules, ...result.output.split('\n').filter((l) => /fail|error|expected/i.test(l))].join('\n'),
                10,
              ),
        });
      }
    } finally {
      await prism.stop();
    }
  }
  return rows;
}
