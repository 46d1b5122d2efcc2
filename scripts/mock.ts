// Serves Prism mocks of both descriptions on loopback and prints their addresses; Ctrl-C stops them.
import { apiFamilies } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';
import { startPrism } from './lib/prism.js';

bundleAll();
const mocks = await Promise.all(apiFamilies().map(async (api) => ({ api, server: await startPrism({ bundle: api.bundleJson }) })));
for (const { api, server } of mocks) console.log(`${api.name.padEnd(8)} mock: ${server.url}`);
console.log('Prism validates every request against the description. Ctrl-C to stop.');
const stop = async () => {
  await Promise.all(mocks.map(({ server }) => server.stop()));
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
