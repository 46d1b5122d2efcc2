// What `npm run build` makes, and the tests' global setup before any test runs: the bundles (dist/openapi/,
// copied into the package ramp-api) and the journeys beside them, the control API's rendered reference, the sandbox's pages, the sandbox's
// PGlite snapshot and compiled validators, and both packages compiled (src/client/dist/lib/, src/sandbox/dist/)
// by TypeScript 7's tsc. Each package's dist/ is emptied first, so that it holds only what this build made.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { referencePagePath } from '../../src/sandbox/contract/reference.js';
import { sandboxDistDir } from '../../src/sandbox/core/dist-dir.js';
import { SNAPSHOT_FILE, SNAPSHOT_MANIFEST } from '../../src/sandbox/store/snapshot.js';
import { allApiFamilies, clientBundleDir, repoRoot } from '../openapi/apis.js';
import { bundleAllAsync } from '../openapi/bundle.js';
import { writeSandboxReferenceAsync } from '../site/site.js';
import { buildSandboxPages } from './build-sandbox-pages.js';
import { writeSnapshot } from './build-snapshot.js';
import { writeValidators } from './build-validators.js';
import { writeShippedWorkflows } from './build-workflows.js';

/** TypeScript 7's compiler (scripts/toolchain/): the repository's type check and build. */
export const tsc = join(repoRoot, 'scripts', 'toolchain', 'node_modules', '.bin', 'tsc');

const run = promisify(execFile);

/**
 * Compiles both packages (JavaScript and declarations), each by its tsconfig.build.json: the client first, as
 * the sandbox's build reads its declarations through node_modules/ramp-api, as a consumer's would. Without
 * `typeCheck`, tsc emits the same files without checking them first (`--noCheck`).
 */
export async function compilePackages(typeCheck = true): Promise<void> {
  for (const dir of ['src/client', 'src/sandbox']) {
    const args = ['-p', join(dir, 'tsconfig.build.json'), ...(typeCheck ? [] : ['--noCheck'])];
    await run(tsc, args, { cwd: repoRoot }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`tsc -p ${dir}/tsconfig.build.json failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
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

/** Removes every file under `dir` but those in `keep` (paths relative to `dir`), and the folders left empty. */
export function emptyDist(dir: string, keep: readonly string[]): void {
  if (!existsSync(dir)) return;
  const kept = new Set(keep.map((path) => join(dir, path)));
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isDirectory() && !kept.has(path)) rmSync(path, { force: true });
  }
  // Deepest first, so a folder is looked at once its own folders are gone.
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if (readdirSync(folder).length === 0) rmdirSync(folder);
}

/**
 * What a build keeps of the packages' dist/: the outputs that carry their own proof of being current, which their
 * step checks and makes again when stale (the bundles' record of their inputs and outputs, the reference page's
 * marker, the snapshot's key). Everything else is removed and made again, so a file an older layout left is never
 * packed.
 */
function keptOutputs(): { dir: string; keep: string[] }[] {
  const clientDist = join(repoRoot, 'src', 'client', 'dist');
  return [
    {
      dir: clientDist,
      keep: allApiFamilies().flatMap((api) =>
        [api.bundleJson, api.bundleYaml].map((file) => relative(clientDist, join(clientBundleDir, basename(file)))),
      ),
    },
    { dir: sandboxDistDir(), keep: [SNAPSHOT_FILE, SNAPSHOT_MANIFEST, basename(referencePagePath())] },
  ];
}

export interface BuildSteps {
  /** Work that needs the bundles and nothing else (the tests' Prism mocks): run beside the rest of the build. */
  afterBundles?: () => Promise<unknown>;
  /**
   * false: the packages are compiled without their type check, for a run that checks the types itself (`npm test`
   * runs `npm run typecheck` as a test of its own). Default: true.
   */
  typeCheck?: boolean;
}

/** Everything the packages ship, from the current sources. The snapshot is remade only when it is stale. */
export async function buildAll(steps: BuildSteps = {}): Promise<{ snapshotWritten: boolean }> {
  for (const { dir, keep } of keptOutputs()) emptyDist(dir, keep);
  // PGlite's snapshot runs in this process while the Redocly CLI and tsc run in their own; the bundles come
  // first, as the client's build and the control API's reference read them.
  const snapshot = writeSnapshot();
  const rest = (async () => {
    await bundleAllAsync();
    const after = steps.afterBundles?.();
    const reference = writeSandboxReferenceAsync();
    const compiled = (async () => {
      buildSandboxPages();
      writeShippedWorkflows();
      const packages = compilePackages(steps.typeCheck);
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
