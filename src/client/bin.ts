#!/usr/bin/env node
// The `ramp-api` command. `ramp-api sandbox ...` runs the sandbox when the package `ramp-api-sandbox` is
// installed beside this one, and otherwise says in one line what to install. `ramp-api usage ...` writes the
// project's usage file (loaded only for this command: it needs the optional analyzer ts-morph).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [command] = process.argv.slice(2);
const USAGE =
  'Usage: ramp-api sandbox [options]   (the sandbox: package ramp-api-sandbox; `ramp-api sandbox --help` lists its options)\n       ramp-api usage [options]     (what this project uses of the API; `ramp-api usage --help`)';

if (command === 'usage') {
  const { runUsage } = await import('./usage/cli.js');
  process.exit(await runUsage(process.argv.slice(3)));
}
if (command !== 'sandbox') {
  console.error(command === undefined || command === '--help' ? USAGE : `Unknown command ${command}. ${USAGE}`);
  process.exit(command === '--help' ? 0 : 2);
}

// Not a dependency of this package (the clients need no server or database): found where it is installed, and
// its own command run in this process (it reads `sandbox` and the options from the same command line).
const sandboxPackage = 'ramp-api-sandbox';
let manifest: string;
try {
  manifest = fileURLToPath(import.meta.resolve(`${sandboxPackage}/package.json`));
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(
    `ramp-api sandbox: the sandbox is the package ${sandboxPackage}, which is not installed here: run \`npm i -D ${sandboxPackage}\`, then \`npx ${sandboxPackage}\`.`,
  );
  process.exit(2);
}
const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
await import(pathToFileURL(join(dirname(manifest), bin[sandboxPackage]!)).href);
