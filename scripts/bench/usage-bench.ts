// `npx tsx scripts/bench/usage-bench.ts [--files 50] [--runs 5]`: times `npx ramp-api usage` on a generated
// consuming project of about 50 files (calls by operationId and by path, field reads, statuses, a webhook
// receiver), against its floor: ts-morph merely loading the same project and getting its diagnostics. Each
// run is a fresh process, as in a team's CI. Needs the build (`npm run build`). Prints median and spread.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { makeUsageProject } from '../../src/testing/usage-project.js';
import { repoRoot } from '../openapi/apis.js';
import { percentile } from './percentile.js';

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

/** The floor: ts-morph loading the project and its diagnostics, nothing more. */
const FLOOR = `import { Project } from 'ts-morph';
const project = new Project({ tsConfigFilePath: process.argv[1] + '/tsconfig.json' });
project.getPreEmitDiagnostics();`;

async function timed(command: string, args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  await run(command, args, { cwd });
  return performance.now() - start;
}

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `median ${s(percentile(sorted, 0.5))} s (min ${s(sorted[0]!)} s, max ${s(sorted.at(-1)!)} s, ${sorted.length} runs)`;
};

const { values } = parseArgs({
  options: { files: { type: 'string', default: '50' }, runs: { type: 'string', default: '5' } },
});
const files = Number(values.files);
const runs = Number(values.runs);
const sources = Object.fromEntries(Array.from({ length: files - 1 }, (_, i) => [`src/module${i}.ts`, sourceFile(i)]));
const project = makeUsageProject('bench-consumer', { ...sources, 'src/receiver.ts': RECEIVER });
try {
  const usage: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs; i++) {
    usage.push(await timed(process.execPath, [BIN, 'usage', '--project', project], project));
    // Run from the repository so that ts-morph resolves as the usage command's does.
    floor.push(await timed(process.execPath, ['--input-type=module', '-e', FLOOR, project], repoRoot));
  }
  console.log(`ramp-api usage on ${files} files:  ${summary(usage)}`);
  console.log(`floor (ts-morph load + diagnostics): ${summary(floor)}`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
