// `npm run bench:usage -- [--files 50] [--runs 5] [--before DIR] [--write]`: `npx ramp-api usage` on a generated
// consuming project (calls by operationId and by path, field reads, statuses, a webhook receiver) against its
// floor, and with `--before DIR` against another checkout's build (after `npm ci && npm run build` there), each
// run a fresh process, taking turns on the harness. Needs `npm run build`; `--write` records BENCHMARKS.md's part.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { makeUsageProject } from '../../src/testing/usage-project.js';
import { repoRoot } from '../openapi/apis.js';
import { measured, rewriteSection, usageTable } from './benchmarks-md.js';
import { type Contender, sideBySide } from './harness.js';

const run = promisify(execFile);
const BIN = join(repoRoot, 'src', 'client', 'dist', 'lib', 'bin.js');

/** One source file of the generated project: a few calls and reads, varied by `i`. */
function sourceFile(i: number): string {
  return `import { createBusinessClient } from 'ramp-api/business';
import { createV1Client } from 'ramp-api/v1';
import type { components } from 'ramp-api/v1';
const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:9' });
const business = createBusinessClient({ baseUrl: 'http://127.0.0.1:9' });
export function line${i}(payout: components['schemas']['Payout']): string {
  return \`\${payout.amount} \${payout.currency}\`;
}
export async function pay${i}(userId: string, amount: number) {
  const { data, response } = await v1.createPayout({
    params: { path: { user_id: userId } },
    body: { amount: amount + ${i}, currency: 'COP', destinationId: 'd${i}' },
  });
  if (response.status === 422) return undefined;
  return data ? [data.id, data.status, line${i}(data)] : undefined;
}
export async function wallets${i}(clientId: string, userId: string) {
  const { data } = await business.GET('/api/b2b2b/{clientId}/wallet/custody/{userId}', {
    params: { path: { clientId, userId } },
  });
  return (data ?? []).map((wallet) => \`\${wallet.id} \${wallet.status}\`);
}
export async function link${i}(userId: string) {
  const { data } = await v1.generateKycUrl({ params: { path: { user_id: userId } } });
  return data?.url;
}
`;
}

const RECEIVER = `import { createWebhookReceiver } from 'ramp-api/webhooks';
export const receiver = createWebhookReceiver({
  handlers: { 'user.created': ({ payload }) => console.log(String(payload.userId)) },
});
`;

/**
 * The floor: the project's program made from its tsconfig.json and type-checked, nothing more, parsing JSDoc as
 * tsc does (and as the usage command does).
 */
const FLOOR = `import { ts } from 'ts-morph';
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} };
const config = ts.getParsedCommandLineOfConfigFile(process.argv[1] + '/tsconfig.json', {}, host);
const compilerHost = ts.createCompilerHost(config.options);
compilerHost.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host: compilerHost });
ts.getPreEmitDiagnostics(program);`;

async function timed(command: string, args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  await run(command, args, { cwd });
  return performance.now() - start;
}

async function headOf(dir: string): Promise<string> {
  const { stdout } = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir });
  return stdout.trim();
}

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    before: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
/** The earlier build's commit, as the table names it. */
const BEFORE_NAME = values.before ? `commit ${await headOf(values.before)}` : '';
const beforeBin = values.before && join(values.before, 'src', 'client', 'dist', 'lib', 'bin.js');
const files = Number(values.files);
const runs = Number(values.runs);
const sources = Object.fromEntries(Array.from({ length: files - 1 }, (_, i) => [`src/module${i}.ts`, sourceFile(i)]));
const project = makeUsageProject('bench-consumer', { ...sources, 'src/receiver.ts': RECEIVER });
try {
  const usageOf = (bin: string) => () => timed(process.execPath, [bin, 'usage', '--project', project], project);
  const contenders: Contender<number>[] = [
    { name: 'usage', turn: usageOf(BIN) },
    // Run from the repository so that ts-morph resolves as the usage command's does.
    {
      name: 'floor',
      role: 'floor',
      turn: () => timed(process.execPath, ['--input-type=module', '-e', FLOOR, project], repoRoot),
    },
    ...(beforeBin ? [{ name: 'before', role: 'reference' as const, turn: usageOf(beforeBin) }] : []),
  ];
  const table = usageTable(await sideBySide(contenders, { turns: runs }, (ms) => ms), BEFORE_NAME);
  console.log(table.join('\n'));
  const command = `npm run bench:usage -- --files ${files} --runs ${runs}${values.before ? ' --before DIR' : ''} --write`;
  if (values.write) rewriteSection('usage', measured(command, table));
} finally {
  rmSync(project, { recursive: true, force: true });
}
