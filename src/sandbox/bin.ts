#!/usr/bin/env node
// The `ramp-api-sandbox` command (`npx ramp-api-sandbox [options]`; `ramp-api-sandbox sandbox [options]` and
// `npx ramp-api sandbox [options]` do the same).
import { runCli } from './cli.js';

const args = process.argv.slice(2);
runCli(args[0] === 'sandbox' ? args : ['sandbox', ...args]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
