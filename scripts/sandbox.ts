// `npm run sandbox`: bundles the descriptions (the sandbox reads dist/openapi/), then runs `ramp-api sandbox`.
import { bundleAll } from './lib/bundle.js';
import { runCli } from '../src/sandbox/cli.js';

bundleAll();
await runCli(['sandbox', ...process.argv.slice(2)]);
