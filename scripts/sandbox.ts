// `npm run sandbox`: bundles the descriptions (the sandbox reads dist/openapi/) and renders the control API's
// reference it serves at /sandbox/docs (when it changed), then runs `ramp-api sandbox`.
import { bundleAll } from './lib/bundle.js';
import { writeSandboxReference } from './lib/site.js';
import { runCli } from '../src/sandbox/cli.js';

bundleAll();
writeSandboxReference();
await runCli(['sandbox', ...process.argv.slice(2)]);
