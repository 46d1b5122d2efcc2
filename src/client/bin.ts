#!/usr/bin/env node
// The `ramp-api` command. `ramp-api sandbox ...` runs the sandbox when the package `ramp-api-sandbox` is
// installed beside this one, and otherwise says in one line what to install.
const [command, ...rest] = process.argv.slice(2);
const USAGE =
  'Usage: ramp-api sandbox [options]   (the sandbox: package ramp-api-sandbox; `ramp-api sandbox --help` lists its options)';

if (command !== 'sandbox') {
  console.error(command === undefined || command === '--help' ? USAGE : `Unknown command ${command}. ${USAGE}`);
  process.exit(command === '--help' ? 0 : 2);
}

// Not a dependency of this package (the clients need no server or database): found where it is installed.
// Its command line alone (`ramp-api-sandbox/cli`), which loads the server once the options are read, while it
// reads the PGlite snapshot.
const sandboxPackage = 'ramp-api-sandbox';
let sandbox: { runCli(argv: string[]): Promise<unknown> };
try {
  sandbox = (await import(`${sandboxPackage}/cli`)) as typeof sandbox;
} catch (error) {
  const missing =
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
    String((error as Error).message).includes(`'${sandboxPackage}'`);
  if (!missing) throw error;
  console.error(
    `ramp-api sandbox: the sandbox is the package ${sandboxPackage}, which is not installed here: run \`npm i -D ${sandboxPackage}\`, then \`npx ${sandboxPackage}\`.`,
  );
  process.exit(2);
}
await sandbox.runCli(['sandbox', ...rest]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
