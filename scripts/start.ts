// The main job: builds the site, serves it on loopback, starts Prism mocks of both API families and the
// stateful sandbox (in memory), prints their addresses, and stops everything on Ctrl-C or SIGTERM.
import { buildSandboxPages } from './build-sandbox-pages.js';
import { apiFamilies } from './lib/apis.js';
import { startPrism, type PrismServer } from './lib/prism.js';
import { buildSite, siteDir } from './lib/site.js';
import { listenOrExit, serveFolder } from './lib/static-server.js';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { portNumber, UsageError } from '../src/sandbox/cli.js';

// The ports first: a bad PORT or SANDBOX_PORT is one line and exit status 2, a busy PORT one clear line and a
// non-zero exit, before anything is built or started.
let ports: { site: number; sandbox: number };
try {
  ports = { site: process.env.PORT ? portNumber('PORT', process.env.PORT) : 0, sandbox: process.env.SANDBOX_PORT ? portNumber('SANDBOX_PORT', process.env.SANDBOX_PORT) : 0 };
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const site = await listenOrExit(() => serveFolder(siteDir, ports.site), String(ports.site));
buildSite();
buildSandboxPages();
const mocks: { name: string; server: PrismServer }[] = [];
let sandbox: Sandbox | undefined;
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  await Promise.all([site.close(), ...mocks.map((m) => m.server.stop()), sandbox?.close()]);
  process.exit(code);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
try {
  for (const api of apiFamilies()) mocks.push({ name: api.name, server: await startPrism({ bundle: api.bundleJson }) });
  sandbox = await startSandbox({ memory: true, port: ports.sandbox });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}
console.log(`Documentation:      ${site.url}/`);
for (const { name, server } of mocks) console.log(`${`${name} API mock:`.padEnd(20)}${server.url}`);
if (sandbox) console.log(`${'Sandbox:'.padEnd(20)}${sandbox.url} (both families, with state; dashboard ${sandbox.url}/; control API docs ${sandbox.docsUrl})`);
console.log('Ctrl-C to stop.');
