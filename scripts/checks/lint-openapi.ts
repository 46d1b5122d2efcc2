// `npm run lint:openapi`: `redocly lint` over every API of redocly.yaml, and over the journeys (the Arazzo files of
// openapi/workflows/, with that folder's redocly.yaml); with arguments, the one run they name. Each report as
// Redocly prints it, without the Node 20 end-of-life box Redocly CLI 2.77 prints on every run (../openapi/
// redocly.ts); the two runs at once, their reports one after the other. Exit status 1 when a run failed.
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { arazzoFileNames } from '../../src/sandbox/journeys/arazzo-files.js';
import { withoutNodeNotice } from '../../src/sandbox/journeys/redocly.js';
import { workflowsDir } from '../journeys/workflows.js';
import { repoRoot } from '../openapi/apis.js';
import { redoclyBin, redoclyEnv } from '../openapi/redocly.js';

interface Report {
  stdout: string;
  stderr: string;
  code: number;
}

function lint(args: string[]): Promise<Report> {
  const child = spawn(redoclyBin, ['lint', ...args], {
    cwd: repoRoot,
    env: redoclyEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report: Report = { stdout: '', stderr: '', code: 1 };
  child.stdout.on('data', (chunk) => {
    report.stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    report.stderr += String(chunk);
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ ...report, stderr: `${report.stderr}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ ...report, code: code ?? (signal ? 1 : 0) }));
  });
}

/** The journeys' run: every Arazzo file of openapi/workflows/, with that folder's own configuration. */
function journeysRun(): string[] {
  const files = arazzoFileNames(workflowsDir).map((name) => relative(repoRoot, join(workflowsDir, name)));
  return ['--config', relative(repoRoot, join(workflowsDir, 'redocly.yaml')), ...files];
}

const given = process.argv.slice(2);
const runs = given.length > 0 ? [given] : [[], journeysRun()];
const reports = await Promise.all(runs.map(lint));
for (const { stdout, stderr } of reports) {
  process.stdout.write(stdout);
  process.stderr.write(withoutNodeNotice(stderr));
}
process.exitCode = reports.some((report) => report.code !== 0) ? 1 : 0;
