// `npm run sandbox`: bundles the descriptions (the sandbox reads dist/openapi/), then runs `ramp-api sandbox`.
import { buildSandboxPages } from './build-sandbox-pages.js';
import { bundleAll } from './lib/bundle.js';
import { runCli } from '../src/sandbox/cli.js';

bundleAll();
buildSandboxPages();
await runCli(['sandbox', ...process.argv.slice(2)]);
