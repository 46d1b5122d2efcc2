// The client's part of `npm run bench`: its cost per call against the other variants in-process and over loopback,
// where its remaining time goes (CPU profile), what each call allocates, token single-flight and bundle sizes.
import { Session } from 'node:inspector/promises';
import { startBenchServer } from './bench-server.js';
import { BUDGETED_IMPORT, bundleSize } from './bundle-size.js';
import { BODY, type Call, CLIENT_ID, type CreateBusinessClient, stub, TOKEN, variants } from './client-calls.js';
import { compareCalls, type Pauses, type Row } from './client-turns.js';

/** What every part of the client's bench runs with: the built client, the `--quick` choice, the pauses watched. */
interface ClientBench {
  createBusinessClient: CreateBusinessClient;
  quick: boolean;
  pauses: Pauses;
}

async function inProcess({ createBusinessClient, quick, pauses }: ClientBench): Promise<Row[]> {
  // About 100 ms per variant and round, so that a garbage collection pause does not decide a round.
  return compareCalls(
    pauses,
    'in-process, stub fetch',
    variants(createBusinessClient, 'https://api.example.co', stub),
    'openapi-fetch + auth middleware',
    { rounds: quick ? 5 : 21, perRound: 4000 },
  );
}

async function overLoopback({
  createBusinessClient,
  quick,
  pauses,
}: ClientBench): Promise<{ rows: Row[]; sent: number; answered: number }> {
  const server = await startBenchServer(BODY);
  let sent = 0;
  const counted = variants(createBusinessClient, server.url, globalThis.fetch).map(([name, call]): [string, Call] => [
    name,
    () => {
      sent++;
      return call();
    },
  ]);
  try {
    const rounds = quick ? 5 : 31;
    const rows = [
      ...(await compareCalls(pauses, 'loopback, sequential', counted, 'openapi-fetch', { rounds, perRound: 500 })),
      ...(await compareCalls(pauses, 'loopback, 32 concurrent', counted, 'openapi-fetch', {
        rounds,
        perRound: 64,
        concurrency: 32,
      })),
    ];
    return { rows, sent, answered: await server.answered() };
  } finally {
    await server.stop();
  }
}

/** A profile's call frame as the tables name it: the client's own function by file, or what else it is. */
const placeOf = ({ url, functionName }: { url: string; functionName: string }): string | undefined =>
  url.includes('/dist/lib/') ? `ramp-api ${url.split('/dist/lib/')[1]} ${functionName || '(anonymous)'}` : undefined;

/** Where the client's time goes: self time of its own functions under the CPU profiler, per call. */
async function costBreakdown(createBusinessClient: CreateBusinessClient, calls = 100_000) {
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  for (let i = 0; i < 5_000; i++) await ramp.listBankAccounts(params);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  const started = performance.now();
  for (let i = 0; i < calls; i++) await ramp.listBankAccounts(params);
  const elapsedUs = (performance.now() - started) * 1000;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const counts = new Map<number, number>();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = profile.samples?.length ?? 1;
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = counts.get(node.id) ?? 0;
    const place =
      placeOf(node.callFrame) ??
      (node.callFrame.url.includes('openapi-fetch')
        ? 'openapi-fetch'
        : 'runtime (Request, Response, JSON, streams, GC, ...)');
    byPlace.set(place, (byPlace.get(place) ?? 0) + hits);
  }
  const perCall = elapsedUs / calls;
  return [...byPlace]
    .map(([place, hits]) => ({ place, us: (hits / total) * perCall }))
    .sort((a, b) => b.us - a.us)
    .filter((entry) => !entry.place.startsWith('ramp-api') || entry.us >= 0.01);
}

/**
 * Memory each call allocates (the sampling heap profiler, every 128 bytes, objects collected since included),
 * for openapi-fetch with an auth middleware and for the client; the client's own functions listed apart.
 */
async function allocations(createBusinessClient: CreateBusinessClient, calls = 50_000) {
  const mw = variants(createBusinessClient, 'https://api.example.co', stub).find(
    ([name]) => name === 'openapi-fetch + auth middleware',
  )![1];
  const ramp = createBusinessClient({ baseUrl: 'https://api.example.co', fetch: stub, auth: { token: TOKEN } });
  const params = { params: { path: { clientId: CLIENT_ID } } };
  const measure = async (call: Call) => {
    for (let i = 0; i < 5_000; i++) await call();
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i++) await call();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    const own = new Map<string, number>();
    let total = 0;
    const walk = (node: typeof profile.head) => {
      total += node.selfSize;
      const place = placeOf(node.callFrame);
      if (place) own.set(place, (own.get(place) ?? 0) + node.selfSize);
      node.children.forEach(walk);
    };
    walk(profile.head);
    return {
      total: total / calls,
      own: [...own].map(([place, bytes]) => ({ place, bytes: bytes / calls })).sort((a, b) => b.bytes - a.bytes),
    };
  };
  return { middleware: await measure(mw), ramp: await measure(() => ramp.listBankAccounts(params)) };
}

async function singleFlight(createBusinessClient: CreateBusinessClient, concurrent = 1000) {
  let tokenRequests = 0;
  const tokenStub = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/api/token')) {
      tokenRequests++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(JSON.stringify({ accessToken: TOKEN }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return stub(input, init);
  }) as typeof fetch;
  const ramp = createBusinessClient({
    baseUrl: 'https://api.example.co',
    fetch: tokenStub,
    auth: { credentials: { clientId: CLIENT_ID } },
  });
  const results = await Promise.all(
    Array.from({ length: concurrent }, () => ramp.listBankAccounts({ params: { path: { clientId: CLIENT_ID } } })),
  );
  return { concurrent, ok: results.filter((r) => r.response.ok).length, tokenRequests };
}

/** The bundles a consumer would make, the budgeted import second. */
const BUNDLES: [label: string, source: string][] = [
  ['openapi-fetch alone', "export { default } from 'openapi-fetch';"],
  ["createBusinessClient from 'ramp-api' (the budgeted import)", BUDGETED_IMPORT],
  ["everything from 'ramp-api' (both clients, errors, unwrap)", "export * from './src/client/index.ts';"],
  ["'ramp-api/webhooks'", "export * from './src/client/webhooks/index.ts';"],
];

/** The whole client's part, in order. */
export async function clientPart(bench: ClientBench) {
  const rows = await inProcess(bench);
  const loopback = await overLoopback(bench);
  const breakdown = await costBreakdown(bench.createBusinessClient);
  const allocated = await allocations(bench.createBusinessClient);
  const flight = await singleFlight(bench.createBusinessClient);
  const sizes = [];
  for (const [label, source] of BUNDLES) sizes.push({ label, ...(await bundleSize(source)) });
  return { rows: [...rows, ...loopback.rows], loopback, breakdown, allocated, flight, sizes };
}
export type ClientPart = Awaited<ReturnType<typeof clientPart>>;
