// `node --import tsx scripts/bench/profile-write.ts [DIR] [CLIENTS] [BIN]`: where createPayout's time goes in the sandbox.
// Starts the built sandbox (PGlite in memory) under `node --cpu-prof`, drives createPayout with autocannon for
// eight seconds, stops it, and prints the profile's self time by layer (HTTP, validation, PGlite and its wasm,
// the sandbox's own code) and its top entries. The profile is kept in DIR (default a new temporary folder); BIN
// is another build's `bin.js` (main's, for a before-and-after profile).

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { v1Operations } from '../../src/client/generated/v1-meta.js';
import { orThrow } from '../../src/client/index.js';
import { createSandboxClient } from '../../src/client/sandbox/client.js';
import { registerExampleUser, sandboxToken } from '../../src/testing/sandbox-users.js';

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'ramp-write-profile-'));
const clients = Number(process.argv[3] ?? 32);
const { spawn } = await import('node:child_process');
const { sandboxBin } = await import('../../src/testing/sandbox-process.js');
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, process.argv[4] ?? sandboxBin, 'sandbox', '--port', '0', '--memory'],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SANDBOX_PORT: '', DATABASE_URL: '' } },
);
process.once('exit', () => child.kill('SIGKILL'));
let out = '';
const url = await new Promise<string>((resolve) =>
  child.stdout.on('data', (c) => {
    out += c;
    const m = /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m && out.includes('Ctrl-C')) resolve(m[1]!);
  }),
);
const sandbox = { url, child, exit: new Promise((r) => child.once('close', r)) };
const control = createSandboxClient({ baseUrl: sandbox.url });
const tenant = await orThrow(control.createTenant({ body: { name: 'Bench' } }));
const v1Token = await sandboxToken(sandbox.url, 'v1', tenant.v1Credentials);
const userId = await registerExampleUser(sandbox.url, tenant);
await orThrow(control.approveUser({ params: { path: { userId } } }));
const account = await orThrow(control.createBankAccount({ body: { clientId: tenant.clientId, userId } }));
await orThrow(control.acceptBankAccount({ params: { path: { accountId: account.accountId } } }));
await orThrow(control.fundUser({ params: { path: { userId } }, body: { amount: 1e12, currency: 'COP' } }));
const result = await autocannon({
  url: sandbox.url + v1Operations.createPayout.path.replace('{user_id}', userId),
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${v1Token}` },
  body: JSON.stringify({ amount: 1000, currency: 'COP', destinationId: account.accountId, paymentMethod: 'ACH' }),
  connections: clients,
  duration: 8,
});
console.log(
  'req/s',
  result.requests.average,
  'p50',
  result.latency.p50,
  'p99',
  result.latency.p99,
  'non2xx',
  result.non2xx,
);
sandbox.child.kill('SIGTERM');
await sandbox.exit;
const file = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()
  .at(-1)!;
const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const layers = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url
    .replace(/^.*\/node_modules\//, 'nm:')
    .replace(/^.*\/sandbox\/dist\//, 'sandbox:')
    .replace(/^node:/, 'node:');
  const key = `${functionName || '(anon)'} ${short}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const layer =
    functionName === '(idle)'
      ? 'idle'
      : functionName === '(garbage collector)'
        ? 'GC'
        : functionName === '(program)'
          ? 'program/native'
          : /pglite/.test(url)
            ? 'PGlite/wasm'
            : /ajv|schema/i.test(url)
              ? 'validation (ajv)'
              : /sandbox\/dist\/pipeline|contract/.test(url)
                ? 'our pipeline/contract'
                : /sandbox\/dist/.test(url)
                  ? 'our code (resources/core/events/store)'
                  : /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net))/.test(url) ||
                      /_http|http_parser|internal\/(streams|net)/.test(url)
                    ? 'HTTP/net (node)'
                    : url.startsWith('node:')
                      ? 'node other'
                      : url === ''
                        ? 'native/builtin'
                        : `other ${short.split('/')[0]}`;
  layers.set(layer, (layers.get(layer) ?? 0) + dt);
});
const pct = (v: number) => `${((100 * v) / total).toFixed(1)}%`;
console.log('total ms', (total / 1000).toFixed(0));
console.log('--- layers');
for (const [k, v] of [...layers].sort((a, b) => b[1] - a[1])) console.log(pct(v), k);
console.log('--- top self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(pct(v), k);
process.exit(0);
