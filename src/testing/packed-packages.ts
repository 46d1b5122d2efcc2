// Test support: the two packages as `npm run pack` makes them, served by a registry on 127.0.0.1 (with every
// package this checkout has installed), and the environment of a user's npm pointed at it, for the tests that set
// up a new project as a consuming team would.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';
import { repoRoot } from './repo.js';

const run = promisify(execFile);

export interface PackedPackages {
  /** Each package's tarball, by package name. */
  tarballs: Record<string, string>;
  /** Each package's files as `npm pack` listed them, sorted. */
  files: Record<string, string[]>;
  /** The folder that holds the tarballs. */
  packs: string;
  registry: LocalRegistry;
  /** A user's npm, its registry the local one, its cache and settings under `work`. */
  npmEnv: NodeJS.ProcessEnv;
}

/**
 * Packs both packages into `work/packs` and serves them. They are packed as each package's prepack builds them
 * (`npm run build`, which the tests' global setup has just run: building again here would rewrite the packages
 * while other tests start them). The caller closes `registry`.
 */
export async function packAndServe(work: string): Promise<PackedPackages> {
  const packs = join(work, 'packs');
  mkdirSync(packs, { recursive: true });
  const { stdout } = await run(
    'npm',
    ['pack', '-w', 'ramp-api', '-w', 'ramp-api-sandbox', '--ignore-scripts', '--json', '--pack-destination', packs],
    { cwd: repoRoot },
  );
  const packed = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
  const tarballs = Object.fromEntries(packed.map((p) => [p.name, join(packs, p.filename)]));
  const files = Object.fromEntries(packed.map((p) => [p.name, p.files.map((f) => f.path).sort()]));
  const registry = await startLocalRegistry({
    nodeModules: [join(repoRoot, 'node_modules'), join(repoRoot, 'scripts', 'toolchain', 'node_modules')],
    tarballs: Object.values(tarballs),
  });
  // A user's npm, not the npm that may be running this test (which passes its settings on as npm_config_*).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const npmEnv = {
    ...inherited,
    npm_config_registry: registry.url,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_userconfig: join(work, 'npmrc'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    SANDBOX_URL: '',
    SANDBOX_PORT: '',
    DATABASE_URL: '',
  };
  writeFileSync(join(work, 'npmrc'), '');
  return { tarballs, files, packs, registry, npmEnv };
}
