// `npm run interop`: other tools' view of the bundles. Generates clients with orval (fetch and axios),
// @hey-api/openapi-ts and swagger-typescript-api into a temporary folder and compiles each under strict
// TypeScript; then runs Specmatic's contract tests (from the examples, and its generative tests) for each
// bundle against a Prism mock, and against the sandbox with a tenant's token and records (a Specmatic
// dictionary). Against the sandbox, a failure the sandbox causes (a 5xx, an answer that breaks the description,
// a refusal no rule in specmatic-sandbox.ts explains) fails the run; the others are listed with why they are not
// the sandbox's.
// Prints one table and exits non-zero if any tool fails.
// `-- --keep` keeps the temporary folder; `-- --no-specmatic` skips Specmatic; `-- --no-generative` runs
// Specmatic from the examples only; `-- --only-sandbox` runs only Specmatic against the sandbox; `-- --baseline`
// checks the released openapi/baseline/ instead (without the sandbox).
// The parts: generators.ts, specmatic.ts (against Prism), specmatic-sandbox.ts and sandbox-fixture.ts, tools.ts.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { generators } from './generators.js';
import { specmatic } from './specmatic.js';
import { specmaticAgainstSandbox } from './specmatic-sandbox.js';

const args = process.argv.slice(2);

const apis = bundleAll();
const work = mkdtempSync(join(tmpdir(), 'ramp-interop-'));
try {
  for (const api of apis)
    copyFileSync(
      args.includes('--baseline') ? join(repoRoot, 'openapi', 'baseline', `${api.name}.json`) : api.bundleJson,
      join(work, `${api.name}.json`),
    );
  const started = Date.now();
  const onlySandbox = args.includes('--only-sandbox');
  const specmaticRows = args.includes('--no-specmatic')
    ? []
    : [
        ...(onlySandbox ? [] : await specmatic(apis, work, args.includes('--no-generative'))),
        ...(args.includes('--baseline')
          ? []
          : await specmaticAgainstSandbox(apis, work, args.includes('--no-generative'))),
      ];
  const rows = [...(onlySandbox ? [] : await generators(apis, work)), ...specmaticRows];
  console.log('| Tool | Version | Bundle | Result |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.tool} | ${r.version} | ${r.api} | ${r.ok ? '' : 'FAILED: '}${r.result} |`);
  for (const r of rows.filter((r) => r.detail))
    console.log(`\n${r.tool} (${r.api})${r.ok ? ", failures that are not the sandbox's" : ''}:\n    ${r.detail}`);
  console.log(
    `\n${rows.filter((r) => r.ok).length} of ${rows.length} checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s${args.includes('--keep') ? `; output kept in ${work}` : ''}`,
  );
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
}
