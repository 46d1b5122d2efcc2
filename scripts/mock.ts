// Serves Prism mocks of both descriptions on loopback and prints their addresses; Ctrl-C or SIGTERM stops them.
import { apiFamilies } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';
import { startPrism, type PrismServer } from './lib/prism.js';

const mocks: PrismServer[] = [];
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  await Promise.all(mocks.map((server) => server.stop()));
  process.exit(code);
};
// Handlers first: a signal during start-up still stops what has started.
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

bundleAll();
for (const api of apiFamilies()) {
  const server = await startPrism({ bundle: api.bundleJson });
  mocks.push(server);
  if (stopping) await server.stop();
  console.log(`${api.name.padEnd(8)} mock: ${server.url}`);
}
console.log('Prism validates every request against the description. Ctrl-C to stop.');
