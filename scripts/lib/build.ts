// What `npm run build` makes, and the tests' global setup before any test runs: the bundles (dist/openapi/,
// copied into the package ramp-api), the control API's rendered reference, the sandbox's pages, the sandbox's
// PGlite snapshot and compiled validators, and both packages compiled (src/client/dist/lib/, src/sandbox/dist/)
// by TypeScript 7's tsc.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSandboxPages } from '../build-sandbox-pages.js';
import { writeSnapshot } from './build-snapshot.js';
import { writeValidators } from './build-validators.js';
import { repoRoot } from './apis.js';
import { bundleAllAsync } from './bundle.js';
import { writeSandboxReferenceAsync } from './site.js';

/** TypeScript 7's compiler (scripts/toolchain/): the repository's type check and build. */
export const tsc = join(repoRoot, 'scripts', 'toolchain', 'node_modules', '.bin', 'tsc');

const run = promisify(execFile);

/**
 * Compiles both packages (JavaScript and declarations), each by its tsconfig.build.json: the client first, as
 * the sandbox's build reads its declarations through node_modules/ramp-api, as a consumer's would.
 */
export async function compilePackages(): Promise<void> {
  for (const dir of ['src/client', 'src/sandbox']) {
    await run(tsc, ['-p', join(dir, 'tsconfig.build.json')], { cwd: repoRoot }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`tsc -p ${dir}/tsconfig.build.json failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    // tsc writes new files without the executable bit: the package's commands get it back, so that they run
    // through this repository's node_modules/.bin (npx ramp-api ...) as they do once installed.
    const { name, bin = {} } = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as {
      name: string;
      bin?: Record<string, string>;
    };
    for (const [command, file] of Object.entries(bin)) {
      chmodSync(join(repoRoot, dir, file), 0o755);
      // npm links a workspace package's commands into node_modules/.bin only if they exist when it installs,
      // and on a fresh clone they are built later: linked here as npm links them (node_modules/<name> is the
      // workspace's link to the package), so `npx ramp-api ...` runs in the repository as in a project that
      // installed the packages.
      const link = join(repoRoot, 'node_modules', '.bin', command);
      if (!existsSync(link)) {
        rmSync(link, { force: true }); // a link to nothing
        symlinkSync(join('..', name, file), link);
      }
    }
  }
}

export interface BuildSteps {
  /** Work that needs the bundles and nothing else (the tests' Prism mocks): run beside the rest of the build. */
  afterBundles?: () => Promise<unknown>;
}

/** Everything the packages ship, from the current sources. The snapshot is remade only when it is stale. */
export async function buildAll(steps: BuildSteps = {}): Promise<{ snapshotWritten: boolean }> {
  // PGlite's snapshot runs in this process while the Redocly CLI and tsc run in their own; the bundles come
  // first, as the client's build and the control API's reference read them.
  const snapshot = writeSnapshot();
  const rest = (async () => {
    await bundleAllAsync();
    const after = steps.afterBundles?.();
    const reference = writeSandboxReferenceAsync();
    const compiled = (async () => {
      buildSandboxPages();
      const packages = compilePackages();
      // While tsc runs in its own process.
      writeValidators();
      await packages;
    })();
    // All awaited whatever happens to one, so nothing is left working when this returns or throws.
    for (const step of await Promise.allSettled([after, reference, compiled]))
      if (step.status === 'rejected') throw step.reason;
  })();
  const [written, built] = await Promise.allSettled([snapshot, rest]);
  if (built.status === 'rejected') throw built.reason;
  if (written.status === 'rejected') throw written.reason;
  const snapshotWritten = written.value;
  return { snapshotWritten };
}
