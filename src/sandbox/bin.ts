#!/usr/bin/env node
// The `ramp-api-sandbox` command: `npx ramp-api-sandbox [options]` starts the sandbox (`ramp-api-sandbox sandbox
// [options]` and `npx ramp-api sandbox [options]` do the same); `npx ramp-api-sandbox journeys [options]` runs the
// journeys (journeys/command.ts).
import { runCli } from './cli.js';

const args = process.argv.slice(2);
const fail = (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
};
if (args[0] === 'journeys') {
  // Loaded only for the journeys: the sandbox's own start does not read their modules.
  import('./journeys/command.js')
    .then(({ journeysCommand }) => journeysCommand(args.slice(1)))
    .then((status) => process.exit(status), fail);
} else runCli(args[0] === 'sandbox' ? args : ['sandbox', ...args]).catch(fail);
