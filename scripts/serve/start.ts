// The main job: builds the site, serves it on loopback, starts Prism mocks of both API families and the
// stateful sandbox (in memory), prints their addresses, and stops everything on Ctrl-C or SIGTERM.

import { portNumber, UsageError } from '../../src/sandbox/cli.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { PrismServer } from '../openapi/prism.js';

// The ports first: a bad PORT or SANDBOX_PORT is one line and exit status 2, a busy PORT one clear line and a
// non-zero exit, before anything is built or started, and before the modules that build and start are loaded.
let ports: { site: number; sandbox: number };
try {
  ports = {
    site: process.env.PORT ? portNumber('PORT', process.env.PORT) : 0,
    sandbox: process.env.SANDBOX_PORT ? portNumber('SANDBOX_PORT', process.env.SANDBOX_PORT) : 0,
  };
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const mocks: { name: string; server: PrismServer }[] = [];
let site: Awaited<ReturnType<typeof serveFolder>> | undefined;
let sandbox: Sandbox | undefined;
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  await Promise.all([site?.close(), ...mocks.map((m) => m.server.stop()), sandbox?.close()]);
  process.exit(code);
};
// First: a signal at any point stops what has started by then. `on`, not `once`: Ctrl-C reaches this process
// twice (from the terminal and relayed by npm), and a second signal while stopping must not end the process
// half-way, leaving mocks running and their folders behind.
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
const [{ withLiveAddresses }, { buildSite, siteDir }, { listenOrExit, serveFolder }] = await Promise.all([
  import('../site/live-addresses.js'),
  import('../site/site.js'),
  import('../site/static-server.js'),
]);
// Each page shows the sandbox's address as it really started, not the documented one (../site/live-addresses.ts).
site = await listenOrExit(
  () => serveFolder(siteDir, ports.site, { html: (text) => withLiveAddresses(text, sandbox?.url) }),
  String(ports.site),
);
const [{ startSandbox }, { buildSandboxPages }, { apiFamilies }, { startPrism }, { writeTargets }, { createProgress }] =
  await Promise.all([
    import('../../src/sandbox/server.js'),
    import('../build/build-sandbox-pages.js'),
    import('../openapi/apis.js'),
    import('../openapi/prism.js'),
    import('../site/console-build.js'),
    import('../site/progress.js'),
  ]);
// The first run takes a minute or more on two cores: each step says so as it begins.
const progress = createProgress();
console.log('Starting (the first run builds everything):');
buildSite({ onStep: progress.step });
progress.step("the sandbox's pages");
buildSandboxPages();
try {
  for (const api of apiFamilies()) {
    progress.step(`the ${api.name} API's Prism mock`);
    const server = await startPrism({ bundle: api.bundleJson });
    mocks.push({ name: api.name, server });
    // A signal that came while it started: stop() has run already, and stops this one now.
    if (stopping) await server.stop();
  }
  // The documentation site's pages may call the sandbox (a console in the reference): its origin is trusted to
  // change state and gets CORS; any other web origin's writes are refused.
  if (!stopping) progress.step('the sandbox (in memory)');
  if (!stopping)
    sandbox = await startSandbox({
      memory: true,
      port: ports.sandbox,
      allowedOrigins: [site.url, site.url.replace('//127.0.0.1:', '//localhost:')],
    });
  if (stopping) await sandbox?.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}
// Stopping already (a signal came during the start): stop() ends the process; nothing is announced.
if (!stopping) {
  // Where the references' console sends by default.
  writeTargets(siteDir, {
    ...(sandbox ? { sandbox: sandbox.url } : {}),
    mocks: Object.fromEntries(mocks.map(({ name, server }) => [name, server.url])),
  });
  progress.done('Ready');
  console.log(`Documentation:      ${site.url}/`);
  for (const { name, server } of mocks) console.log(`${`${name} API mock:`.padEnd(20)}${server.url}`);
  if (sandbox)
    console.log(
      `${'Sandbox:'.padEnd(20)}${sandbox.url} (both families, with state; dashboard ${sandbox.url}/; control API docs ${sandbox.docsUrl})`,
    );
  console.log('Ctrl-C to stop.');
}
