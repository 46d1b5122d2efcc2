// `npm run bench`: one run, one table. Per-call cost of the typed client against plain fetch, bare
// openapi-fetch and axios (in-process with fetch stubbed, and over loopback), token single-flight, bundle
// sizes and suite wall times. `--write` also records the table in BENCHMARKS.md; `--no-suites` skips
// timing `npm test` and the contract suite; the sandbox section (sandbox vs Prism under load) is skipped with
// `--no-sandbox`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import axios, { type AxiosAdapter } from 'axios';
import { build } from 'esbuild';
import createClient from 'openapi-fetch';
import { createBusinessClient } from '../src/index.js';
import type { paths } from '../src/business/index.js';
import { repoRoot } from './lib/apis.js';
import { sandboxTable, sandboxVsPrism } from './lib/sandbox-bench.js';

const args = new Set(process.argv.slice(2));
const CLIENT_ID = '7b1e2c4a-9d3f-4e8b-a6c1-2f5d8e9a0b13';
const TOKEN = 'bench-token';
const BODY = JSON.stringify([
  { id: '1b6d3f8a-7e24-4c59-9a0b-3e8f2d7c5a16', accountHolderName: 'Cafetera Andina S.A.S.', accountNickname: 'Cuenta principal', accountNumber: '03100045872', accountType: 'ahorros', bank: { name: 'BANCOLOMBIA' }, countryFiat: { symbolFiat: 'COP', countryId: 'CO' }, metadata: [], status: 'accepted', registerDate: '2026-09-03 11:20:15.772340', userId: CLIENT_ID },
]);
// What a real server sends with a JSON body (node:http's res.end sets the same two headers).
const JSON_HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };

interface Stats {
  median: number;
  low: number;
  high: number;
}

/** Microseconds per call: `rounds` rounds of `perRound` sequential calls after a warm-up; median and range of the rounds. */
async function measure(call: () => Promise<unknown>, rounds: number, perRound: number): Promise<Stats> {
  for (let i = 0; i < perRound; i++) await call();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) await call();
    samples.push(((performance.now() - started) * 1000) / perRound);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, low: samples[0]!, high: samples.at(-1)! };
}

async function compare(label: string, variants: [string, () => Promise<unknown>][], rounds: number, perRound: number) {
  const results: [string, Stats][] = [];
  // Interleave the variants round by round so that machine noise hits them alike.
  for (const [name, call] of variants) for (let i = 0; i < 200; i++) await call();
  const collected = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const [name, call] of variants) {
      const stats = await measure(call, 1, perRound);
      (collected.get(name) ?? collected.set(name, []).get(name)!).push(stats.median);
    }
  }
  for (const [name] of variants) {
    const samples = collected.get(name)!.sort((a, b) => a - b);
    results.push([name, { median: samples[Math.floor(samples.length / 2)]!, low: samples[0]!, high: samples.at(-1)! }]);
  }
  const base = results[0]![1].median;
  return results.map(([name, s]) => ({ label, name, ...s, ratio: s.median / base }));
}

async function inProcess() {
  const stub = (async () => new Response(BODY, { status: 200, headers: JSON_HEADERS })) as typeof fetch;
  const url = `https://api.example.co/api/accounts/${CLIENT_ID}`;
  const bare = createClient<paths>({ baseUrl: 'https://api.example.co', fetch: stub });
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN } });
  const rampNoRetry = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN }, retry: false });
  const stubAdapter: AxiosAdapter = async (config) => ({ data: BODY, status: 200, statusText: 'OK', headers: JSON_HEADERS, config, request: {} });
  const ax = axios.create({ adapter: stubAdapter });
  return compare(
    'in-process, fetch stubbed',
    [
      ['plain fetch + JSON.parse', async () => JSON.parse(await (await stub(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text())],
      ['bare openapi-fetch', () => bare.GET('/api/accounts/{clientId}', { params: { path: { clientId: CLIENT_ID } }, headers: { authorization: `Bearer ${TOKEN}` } })],
      ['ramp-api client (auth, cached token)', () => ramp.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })],
      ['ramp-api client, retry: false', () => rampNoRetry.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })],
      ['axios (stub adapter)', () => ax.get(url, { headers: { authorization: `Bearer ${TOKEN}` } })],
    ],
    15,
    2000,
  );
}

async function loopback() {
  const server = createServer((_req, res) => res.writeHead(200, JSON_HEADERS).end(BODY));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${base}/api/accounts/${CLIENT_ID}`;
  const bare = createClient<paths>({ baseUrl: base });
  const ramp = createBusinessClient({ baseUrl: base, auth: { token: TOKEN } });
  const ax = axios.create({ httpAgent: new Agent({ keepAlive: true }) });
  try {
    return await compare(
      'loopback node:http',
      [
        ['plain fetch + JSON.parse', async () => JSON.parse(await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text())],
        ['bare openapi-fetch', () => bare.GET('/api/accounts/{clientId}', { params: { path: { clientId: CLIENT_ID } }, headers: { authorization: `Bearer ${TOKEN}` } })],
        ['ramp-api client (auth, cached token)', () => ramp.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })],
        ['axios (http adapter, keep-alive)', () => ax.get(url, { headers: { authorization: `Bearer ${TOKEN}` } })],
      ],
      9,
      300,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function singleFlight(concurrent = 1000) {
  let tokenRequests = 0;
  const stub = (async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/api/token')) {
      tokenRequests++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(JSON.stringify({ accessToken: TOKEN }), { status: 200, headers: JSON_HEADERS });
    }
    return new Response(BODY, { status: 200, headers: JSON_HEADERS });
  }) as typeof fetch;
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { credentials: { clientId: CLIENT_ID } } });
  const results = await Promise.all(Array.from({ length: concurrent }, () => ramp.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })));
  return { concurrent, ok: results.filter((r) => r.response.ok).length, tokenRequests };
}

async function bundleSizes() {
  const size = async (label: string, contents: string) => {
    const out = await build({
      stdin: { contents, resolveDir: repoRoot, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.contents;
    return { label, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
  };
  return [
    await size('openapi-fetch alone', "export { default } from 'openapi-fetch';"),
    await size('ramp-api (root: both clients, errors, unwrap)', "export * from './src/index.ts';"),
    await size('ramp-api/business', "export * from './src/business/index.ts';"),
    await size('ramp-api/v1', "export * from './src/v1/index.ts';"),
    await size('ramp-api/webhooks', "export * from './src/webhooks/index.ts';"),
  ];
}

function wallTime(command: string[], env: NodeJS.ProcessEnv = {}): { seconds: number; ok: boolean } {
  const started = performance.now();
  const result = spawnSync(command[0]!, command.slice(1), { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'ignore' });
  return { seconds: (performance.now() - started) / 1000, ok: result.status === 0 };
}

const us = (n: number) => `${n.toFixed(2)} µs`;
const kb = (n: number) => `${(n / 1024).toFixed(2)} kB`;

const callRows = [...(await inProcess()), ...(await loopback())];
const flight = await singleFlight();
const sizes = await bundleSizes();
// `--no-sandbox` skips the sandbox-vs-Prism load section (about 40 s).
const sandboxRows = args.has('--no-sandbox') ? [] : await sandboxVsPrism();
const suites = args.has('--no-suites')
  ? undefined
  : { npmTest: wallTime(['npm', 'test']), contract: wallTime(['npm', 'run', 'contract']) };

const lines = [
  '| Where | Variant | Median per call | Range of rounds | Ratio to plain fetch |',
  '| --- | --- | --- | --- | --- |',
  ...callRows.map((r) => `| ${r.label} | ${r.name} | ${us(r.median)} | ${us(r.low)} – ${us(r.high)} | ${r.ratio.toFixed(2)}x |`),
  '',
  `| Token single-flight | ${flight.concurrent} concurrent calls on a cold cache | ${flight.ok} succeeded | ${flight.tokenRequests} token request(s) |`,
  '| --- | --- | --- | --- |',
  '',
  '| Bundle for a consumer (esbuild, minified, ESM) | Minified | Gzipped |',
  '| --- | --- | --- |',
  ...sizes.map((s) => `| ${s.label} | ${kb(s.minified)} | ${kb(s.gzipped)} |`),
];
if (sandboxRows.length) lines.push('', ...sandboxTable(sandboxRows));
if (suites) {
  lines.push(
    '',
    '| Suite | Wall time | Passed |',
    '| --- | --- | --- |',
    `| npm test (lint, typecheck, unit, contract, package) | ${suites.npmTest.seconds.toFixed(1)} s | ${suites.npmTest.ok ? 'yes' : 'NO'} |`,
    `| contract suite alone (npm run contract) | ${suites.contract.seconds.toFixed(1)} s | ${suites.contract.ok ? 'yes' : 'NO'} |`,
  );
}
const table = lines.join('\n');
console.log(table);

const client = callRows.find((r) => r.label.startsWith('in-process') && r.name.startsWith('ramp-api'))!;
const row = (name: string) => callRows.find((r) => r.label.startsWith('in-process') && r.name.startsWith(name))!;
const costs = [
  `- openapi-fetch itself: ${us(row('bare openapi-fetch').median - row('plain fetch').median)} over plain fetch per call (it builds a Request, with its AbortSignal and body stream, serializes the path and merges headers), so no client built on it can reach 1.15x plain fetch.`,
  `- this client over bare openapi-fetch: ${us(client.median - row('bare openapi-fetch').median)}, of which ${us(client.median - row('ramp-api client, retry: false').median)} is reading a GET's body before handing it on while a retry is still possible (a connection dropped mid-body is then retried); with \`retry: false\` (or for POST and DELETE) the answer is handed on as it is.`,
  (() => {
    const loop = (name: string) => callRows.find((r) => r.label.startsWith('loopback') && r.name.startsWith(name))!;
    const delta = loop('ramp-api').median - loop('bare openapi-fetch').median;
    const spread = loop('bare openapi-fetch').high - loop('bare openapi-fetch').low;
    return `- over loopback this client costs ${us(delta)} more than bare openapi-fetch, against a round-to-round range of ${us(spread)} for bare openapi-fetch alone: ${Math.abs(delta) <= spread ? 'within the noise; the network sets the cost' : 'larger than the noise'}.`;
  })(),
  `- bundle: openapi-fetch is ${kb(sizes[0]!.gzipped)} of the root entry's ${kb(sizes.find((s) => s.label.startsWith('ramp-api (root'))!.gzipped)} gzipped; the rest is the transport (timeouts, retries, 401 repeat, body limits), the token cache, the named errors and both operation tables.`,
];
const root = sizes.find((s) => s.label.startsWith('ramp-api (root'))!;
const targets = [
  `- client call with authentication, in-process: ${client.ratio.toFixed(2)}x plain fetch (target at most 1.15x): ${client.ratio <= 1.15 ? 'met' : 'missed'}`,
  `- root entry point bundled, openapi-fetch included: ${kb(root.gzipped)} gzipped (target at most 6 kB): ${root.gzipped <= 6 * 1024 ? 'met' : 'missed'}`,
  ...(suites ? [`- npm test after npm ci: ${suites.npmTest.seconds.toFixed(1)} s (target at most 60 s): ${suites.npmTest.seconds <= 60 ? 'met' : 'missed'}`] : []),
];
console.log(`\nTargets\n${targets.join('\n')}\n\nWhat costs the time\n${costs.join('\n')}`);

if (args.has('--write')) {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  writeFileSync(
    join(repoRoot, 'BENCHMARKS.md'),
    `# Benchmarks

Written by \`npm run bench -- --write\` (commit ${commit}, ${new Date().toISOString().slice(0, 10)}). Reproduce with \`npm ci && npm run bench\`.

Machine: ${machine}.

Per-call figures are microseconds per awaited call: a warm-up, then rounds of sequential calls (2000 per round
in-process, 300 over loopback) with the variants interleaved round by round; the median of the rounds and their
range. In-process, \`fetch\` is a stub that returns a fresh \`Response\` with a one-account JSON list (as
openapi-fetch's own benchmark does), so the figures are the libraries' own cost. Over loopback, a \`node:http\`
server answers the same body with keep-alive.

${table}

## Targets

${targets.join('\n')}

## What costs the time (from the same run)

${costs.join('\n')}

The benchmark is not a test: \`npm test\` never fails on timings.
`,
  );
  console.log('\nWrote BENCHMARKS.md');
}
