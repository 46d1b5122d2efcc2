import { runJourneysOnSandbox } from './lib/journeys.js';
const c = Number(process.argv[2] ?? 3);
const t0 = performance.now();
const runs = await runJourneysOnSandbox('http://127.0.0.1:4391', { concurrency: c });
console.log(
  'concurrency',
  c,
  'total',
  Math.round(performance.now() - t0),
  runs.map((r) => `${r.file}:${r.ok}:${r.ms}`).join(' '),
);
