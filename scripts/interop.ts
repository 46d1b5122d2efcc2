// `npm run interop`: other tools' view of the bundles. Generates clients with orval (fetch and axios),
// @hey-api/openapi-ts and swagger-typescript-api into a temporary folder and compiles each under strict
// TypeScript; then runs Specmatic's contract tests (from the examples, and its generative tests) for each
// bundle against a Prism mock. Prints one table and exits non-zero if any tool fails.
// `-- --keep` keeps the temporary folder; `-- --no-specmatic` skips Specmatic; `-- --no-generative` runs
// Specmatic from the examples only; `-- --baseline` checks the released openapi/baseline/ instead.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, type ApiFamily } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';
import { startPrism } from './lib/prism.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const args = process.argv.slice(2);

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command without a shell, keeping the last 64 KiB of its output. */
function run(command: string, commandArgs: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: options.cwd ?? repoRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-65_536);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

interface Generator {
  tool: string;
  pkg: string;
  /** The command line that writes the client for one bundle into `out`. */
  command: (bundle: string, out: string, api: string) => [string, string[]];
}

const GENERATORS: Generator[] = [
  { tool: 'orval (fetch client)', pkg: 'orval', command: (bundle, out, api) => [bin('orval'), ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'fetch']] },
  { tool: 'orval (axios client)', pkg: 'orval', command: (bundle, out, api) => [bin('orval'), ['--input', bundle, '--output', join(out, `${api}.ts`), '--client', 'axios']] },
  { tool: '@hey-api/openapi-ts', pkg: '@hey-api/openapi-ts', command: (bundle, out, api) => [bin('openapi-ts'), ['--input', bundle, '--output', join(out, api), '--no-log-file']] },
  { tool: 'swagger-typescript-api', pkg: 'swagger-typescript-api', command: (bundle, out, api) => [bin('swagger-typescript-api'), ['generate', '--path', bundle, '--output', join(out, api), '--name', `${api}.ts`]] },
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

const firstLines = (text: string, n = 6) =>
  text
    .split('\n')
    .filter((l) => l.trim() && !/npm warn/.test(l))
    .slice(0, n)
    .join('\n    ');

interface Row {
  tool: string;
  version: string;
  api: string;
  result: string;
  ok: boolean;
  detail?: string;
}

async function generators(apis: ApiFamily[], work: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, generator] of GENERATORS.entries()) {
    const out = join(work, `client-${i}`);
    const version = versionOf(generator.pkg);
    const generated: string[] = [];
    for (const api of apis) {
      const [command, commandArgs] = generator.command(join(work, `${api.name}.json`), out, api.name);
      const result = await run(command, commandArgs, { cwd: work });
      if (result.code === 0) generated.push(api.name);
      else rows.push({ tool: generator.tool, version, api: api.name, ok: false, result: `generation failed (exit ${result.code})`, detail: firstLines(result.output) });
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
        result: ok ? 'generated; compiles under strict TypeScript' : `generated; does not compile (${mine.length || errors} TypeScript errors)`,
        detail: ok ? undefined : firstLines(mine.join('\n') || compiled.output),
      });
    }
  }
  return rows;
}

/** Specmatic's summary line: `Tests run: 14, Successes: 14, Failures: 0, WIP: 0, Errors: 0`. */
function specmaticCounts(output: string) {
  const match = [...output.matchAll(/Tests run: (\d+), Successes: (\d+), Failures: (\d+)(?:, WIP: (\d+))?, Errors: (\d+)/g)].at(-1);
  return match ? { tests: Number(match[1]), passed: Number(match[2]), failed: Number(match[3]) + Number(match[5]) } : undefined;
}

async function specmatic(apis: ApiFamily[], work: string): Promise<Row[]> {
  const jar = join(repoRoot, 'node_modules', 'specmatic', 'specmatic.jar');
  const version = versionOf('specmatic');
  const java = await run('java', ['-version']);
  if (java.code !== 0) {
    return [{ tool: 'Specmatic', version, api: 'both', ok: false, result: 'not run: no `java` on PATH (apt-get install -y default-jre-headless)', detail: firstLines(java.output) }];
  }
  const modes = args.includes('--no-generative') ? [false] : [false, true];
  const rows: Row[] = [];
  for (const api of apis) {
    // Prism watches the file it serves: serve a copy, not dist/ (which bundling rewrites).
    const served = join(work, `served-${api.name}.json`);
    copyFileSync(join(work, `${api.name}.json`), served);
    const prism = await startPrism({ bundle: served });
    try {
      for (const generative of modes) {
        const result = await run('java', ['-jar', jar, 'test', join(work, `${api.name}.json`), `--testBaseURL=${prism.url}`], {
          cwd: work,
          env: { SPECMATIC_DISABLE_TELEMETRY: 'true', SPECMATIC_GENERATIVE_TESTS: String(generative) },
          timeoutMs: 900_000,
        });
        const counts = specmaticCounts(result.output);
        const mode = generative ? 'generative tests' : 'tests from the examples';
        const ok = result.code === 0 && !!counts && counts.failed === 0 && counts.tests > 0;
        const rules = [...new Set(result.output.match(/OAS\d{4}[^\n]*/g) ?? [])];
        rows.push({
          tool: `Specmatic (${mode}) against Prism`,
          version,
          api: api.name,
          ok,
          result: counts ? `${counts.tests} tests, ${counts.passed} passed, ${counts.failed} failed` : `no summary (exit ${result.code})`,
          detail: ok ? undefined : firstLines([...rules, ...result.output.split('\n').filter((l) => /fail|error|expected/i.test(l))].join('\n'), 10),
        });
      }
    } finally {
      await prism.stop();
    }
  }
  return rows;
}

const apis = bundleAll();
const work = mkdtempSync(join(tmpdir(), 'ramp-interop-'));
try {
  for (const api of apis) copyFileSync(args.includes('--baseline') ? join(repoRoot, 'openapi', 'baseline', `${api.name}.json`) : api.bundleJson, join(work, `${api.name}.json`));
  const started = Date.now();
  const rows = [...(await generators(apis, work)), ...(args.includes('--no-specmatic') ? [] : await specmatic(apis, work))];
  console.log('| Tool | Version | Bundle | Result |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.tool} | ${r.version} | ${r.api} | ${r.ok ? '' : 'FAILED: '}${r.result} |`);
  for (const r of rows.filter((r) => !r.ok && r.detail)) console.log(`\n${r.tool} (${r.api}):\n    ${r.detail}`);
  console.log(`\n${rows.filter((r) => r.ok).length} of ${rows.length} checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s${args.includes('--keep') ? `; output kept in ${work}` : ''}`);
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
}
