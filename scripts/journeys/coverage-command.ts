// `npm run journeys:table`, the command over ./coverage.ts: writes docs/journeys.md, the journeys and which of them
// reaches each event, state and trigger value; `--check` fails when it is stale or when something is reached by no
// journey.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../openapi/apis.js';
import { COVERAGE_FILE, coverage, coverageMarkdown, coverageProblems } from './coverage.js';

const c = coverage();
const problems = coverageProblems(c);
const file = join(repoRoot, COVERAGE_FILE);
const next = coverageMarkdown(c);
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // not written yet
}
if (problems.length) console.error(`Coverage problems:\n- ${problems.join('\n- ')}`);
if (process.argv.includes('--check')) {
  if (current !== next) console.error(`${COVERAGE_FILE} is stale: run \`npm run journeys:table\`.`);
  process.exit(current === next && !problems.length ? 0 : 1);
}
if (current !== next) writeFileSync(file, next);
console.log(current === next ? `${COVERAGE_FILE} is current` : `Wrote ${COVERAGE_FILE}`);
process.exit(problems.length ? 1 : 0);
