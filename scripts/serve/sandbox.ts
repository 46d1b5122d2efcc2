// `npm run sandbox`: bundles the descriptions (the sandbox reads dist/openapi/), renders the control API's
// reference it serves at /sandbox/docs (when it changed) and builds its pages, then runs `ramp-api sandbox`.

import { runCli } from '../../src/sandbox/cli.js';
import { buildSandboxPages } from '../build/build-sandbox-pages.js';
import { bundleAll } from '../openapi/bundle.js';
import { writeSandboxReference } from '../site/site.js';

bundleAll();
writeSandboxReference();
buildSandboxPages();
await runCli(['sandbox', ...process.argv.slice(2)]);
