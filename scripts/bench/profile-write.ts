// `node --import tsx scripts/bench/profile-write.ts [DIR] [CLIENTS] [BIN]`: where createPayout's time goes in the
// sandbox. Starts the built sandbox (PGlite in memory) under `--cpu-prof`, drives createPayout with autocannon for
// eight seconds, stops it, and prints the profile's self time by layer (HTTP, validation, PGlite and its wasm,
// the sandbox's own code) and its top entries. The profile is kept in DIR (default a new temporary folder); BIN
// is another build's `bin.js` (main's, for a before-and-after profile).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sandboxBin } from '../../src/testing/sandbox-process.js';
import { loadOf } from './sandbox-bench.js';
import { payoutProbe } from './write-bench.js';

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'ramp-write-profile-'));
const clients = Number(process.argv[3] ?? 32);
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, process.argv[4] ?? sandboxBin, 'sandbox', '--port', '0', '--memory'],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SANDBOX_PORT: '', DATABASE_URL: '' } },
);
process.once('exit', () => child.kill('SIGKILL'));
const exited = new Promise((resolve) => child.once('close', resolve));
let out = '';
const url = await new Promise<string>((resolve) =>
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const address = /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    if (address && out.includes('Ctrl-C')) resolve(address);
  }),
);
const result = await autocannon(loadOf(await payoutProbe(url), clients, 8));
const { p50, p99 } = result.latency;
console.log('req/s', result.requests.average, 'p50', p50, 'p99', p99, 'non2xx', result.non2xx);
child.kill('SIGTERM');
await exited;

const file = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()
  .at(-1)!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};
/** The layer of a call frame: the first rule its function name or its script's URL matches. */
const LAYERS: [test: (name: string, url: string) => boolean, layer: string][] = [
  [(name) => name === '(idle)', 'idle'],
  [(name) => name === '(garbage collector)', 'GC'],
  [(name) => name === '(program)', 'program/native'],
  [(_, url) => /pglite/.test(url), 'PGlite/wasm'],
  [(_, url) => /ajv|schema/i.test(url), 'validation (ajv)'],
  [(_, url) => /sandbox\/dist\/pipeline|contract/.test(url), 'our pipeline/contract'],
  [(_, url) => /sandbox\/dist/.test(url), 'our code (resources/core/events/store)'],
  [
    (_, url) => /_http|http_parser|internal\/(http|streams?|stream_base|net)|^node:(http|net|stream)/.test(url),
    'HTTP/net (node)',
  ],
  [(_, url) => url.startsWith('node:'), 'node other'],
  [(_, url) => url === '', 'native/builtin'],
];
const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
const self = new Map<string, number>();
const layers = new Map<string, number>();
const add = (map: Map<string, number>, key: string, dt: number) => map.set(key, (map.get(key) ?? 0) + dt);
let total = 0;
for (const [i, id] of profile.samples.entries()) {
  const dt = profile.timeDeltas[i] ?? 0;
  const { functionName, url, lineNumber } = byId.get(id)!;
  const short = url.replace(/^.*\/node_modules\//, 'nm:').replace(/^.*\/sandbox\/dist\//, 'sandbox:');
  total += dt;
  add(self, `${functionName || '(anon)'} ${short}:${lineNumber + 1}`, dt);
  add(layers, LAYERS.find(([test]) => test(functionName, url))?.[1] ?? `other ${short.split('/')[0]}`, dt);
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, dt]) => `${((100 * dt) / total).toFixed(1)}% ${key}`);
console.log(
  [
    'total ms',
    (total / 1000).toFixed(0),
    '--- layers',
    ...top(layers, Infinity),
    '--- top self',
    ...top(self, 30),
  ].join('\n'),
);
process.exit(0);
