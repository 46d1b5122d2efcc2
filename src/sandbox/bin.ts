#!/usr/bin/env node
// The package's `ramp-api` command (`npx ramp-api sandbox`).
import { runCli } from './cli.js';

runCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
