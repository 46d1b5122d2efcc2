// Specmatic's contract tests in `npm run interop` against the sandbox: a failure the sandbox causes fails the run;
// a refusal explained below (a request no state lets succeed, answered as documented) is listed with why.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiFamily, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { sandboxFixture } from './sandbox-fixture.js';
import { specmaticCounts } from './specmatic.js';
import { type Row, run, versionOf } from './tools.js';

/**
 * Why a refusal the sandbox answered to a Specmatic test is right, by the refusal's `error` code: the request
 * Specmatic made up cannot succeed against any state, and the answer is the status the description documents.
 * A failed test whose refusal is not here is counted as the sandbox's.
 */
const EXPLAINED_REFUSALS: Record<string, { why: string; scenario?: RegExp } | { why: string; scenario?: RegExp }[]> = {
  invalid_credentials: {
    why: "the token call with the description's example body, an empty object (the source does not show the body); no service issues a token without credentials (documented 400/401)",
    scenario: /\/token -> 200 with the request from the example 'bodyNotShown'/,
  },
  invalid_request: [
    {
      why: "a wallet transfer sent as the description's empty example body (the source does not show the body): the sandbox's own fields are missing (documented 400)",
      scenario: /\/wallet\/transfer\/.* -> 200 with the request from the example 'bodyNotShown'/,
    },
    {
      why: 'an endpoint whose url is random text up to its 500-character maxLength: Specmatic does not generate values for `format: uri`, and a url must be an absolute URI (documented 422)',
      scenario: /\/integration-endpoints -> 201/,
    },
  ],
  tier_limit_exceeded: {
    why: "an on-ramp amount Specmatic picked up to 1.8e308 COP, over the user's tier limit (the sandbox's default: 10^15 COP, the most a balance holds): the source's own 422 for an operation over the compliance tier limits",
  },
  insufficient_funds: {
    why: "an on-ramp paid from the user's balance (INVERSE) for more than it holds: the source's own 400, insufficient funds in the origin",
  },
};

/** The reason a failed test is not the sandbox's, or undefined when none applies. */
function explanation(f: FailedTest): string | undefined {
  const rules = f.status !== undefined && f.status < 500 && f.error ? [EXPLAINED_REFUSALS[f.error] ?? []].flat() : [];
  return rules.find((rule) => !rule.scenario || rule.scenario.test(f.scenario))?.why;
}

interface FailedTest {
  scenario: string;
  status: number | undefined;
  error: string | undefined;
}

/** The failed tests in a Specmatic log, each with the sandbox's answer (status and `error` code). */
function failedTests(log: string): FailedTest[] {
  return log
    .split('--------------------')
    .filter((chunk) => / has FAILED/.test(chunk))
    .map((chunk) => {
      const answer = chunk.slice(chunk.indexOf('Response at'));
      return {
        scenario: /Scenario: (.*?) has FAILED/.exec(chunk)![1]!.replace(/ where .*/, ''),
        status: Number(/Response at [^\n]*\n\s+(\d{3})/.exec(answer)?.[1]) || undefined,
        error: /"error": "([^"]+)"/.exec(answer)?.[1],
      };
    });
}

export async function specmaticAgainstSandbox(apis: ApiFamily[], work: string, noGenerative: boolean): Promise<Row[]> {
  const jar = join(repoRoot, 'node_modules', 'specmatic', 'specmatic.jar');
  const version = versionOf('specmatic');
  if ((await run('java', ['-version'])).code !== 0) return [];
  const modes = noGenerative ? [false] : [false, true];
  const rows: Row[] = [];
  const fixture = await sandboxFixture();
  try {
    // The service's families only: the control API belongs to the sandbox itself.
    for (const api of apis.filter((a) => a.name !== SANDBOX_FAMILY)) {
      // Specmatic picks up `<spec>_dictionary.json` beside the spec.
      const spec = join(work, `sandbox-${api.name}.json`);
      copyFileSync(join(work, `${api.name}.json`), spec);
      writeFileSync(
        join(work, `sandbox-${api.name}_dictionary.json`),
        JSON.stringify(fixture.dictionary(api.name), null, 2),
      );
      for (const generative of modes) {
        const mode = generative ? 'generative tests' : 'tests from the examples';
        const logFile = join(work, `specmatic-sandbox-${api.name}-${generative ? 'generative' : 'examples'}.log`);
        const violationsBefore = fixture.sandbox.violations.length;
        // A fresh token per run: a Business token lives 5 minutes. Specmatic reads it from the variable named after the scheme.
        const result = await run('java', ['-jar', jar, 'test', spec, `--testBaseURL=${fixture.sandbox.url}`], {
          cwd: work,
          env: {
            SPECMATIC_DISABLE_TELEMETRY: 'true',
            SPECMATIC_GENERATIVE_TESTS: String(generative),
            bearerAuth: await fixture.token(api.name),
          },
          timeoutMs: 1_800_000,
          logFile,
        });
        const counts = specmaticCounts(result.output);
        const failed = failedTests(readFileSync(logFile, 'utf8'));
        const violations = fixture.sandbox.violations.slice(violationsBefore);
        const sandboxs = failed.filter((f) => explanation(f) === undefined);
        const explained = new Map<string, number>();
        for (const f of failed.filter((f) => !sandboxs.includes(f))) {
          const key = `${f.status} ${f.error}: ${explanation(f)}`;
          explained.set(key, (explained.get(key) ?? 0) + 1);
        }
        const ok =
          !!counts &&
          counts.tests > 0 &&
          sandboxs.length === 0 &&
          violations.length === 0 &&
          counts.failed === failed.length;
        rows.push({
          tool: `Specmatic (${mode}) against the sandbox`,
          version,
          api: api.name,
          ok,
          result: counts
            ? `${counts.tests} tests, ${counts.passed} passed, ${counts.failed} failed (${counts.failed - sandboxs.length} not the sandbox's, ${sandboxs.length} the sandbox's)`
            : `no summary (exit ${result.code})`,
          detail:
            [
              ...[...explained].map(([why, n]) => `${n} x ${why}`),
              ...sandboxs
                .slice(0, 10)
                .map((f) => `THE SANDBOX'S: ${f.scenario}: answered ${f.status ?? 'nothing'} ${f.error ?? ''}`),
              ...violations.slice(0, 10).map((v) => `VIOLATION: ${v}`),
            ].join('\n    ') || undefined,
        });
      }
    }
  } finally {
    await fixture.sandbox.close();
  }
  return rows;
}
