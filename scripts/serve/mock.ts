// Serves Prism mocks of both descriptions on loopback and prints their addresses; Ctrl-C or SIGTERM stops them.
import { apiFamilies } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import { type PrismServer, startPrism } from '../openapi/prism.js';

const mocks: PrismServer[] = [];
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  await Promise.all(mocks.map((server) => server.stop()));
  process.exit(code);
};
// Handlers first: a signal during start-up still stops what has started.
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by npm), and a second
// signal while stopping must not end the process half-way, leaving mocks running and their folders behind.
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

bundleAll();
for (const api of apiFamilies()) {
  const server = await startPrism({ bundle: api.bundleJson });
  mocks.push(server);
  if (stopping) await server.stop();
  console.log(`${api.name.padEnd(8)} mock: ${server.url}`);
}
console.log('Prism validates every request against the description. Ctrl-C to stop.');
