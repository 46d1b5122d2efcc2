// Bundles every API family in redocly.yaml into dist/openapi/<name>.{yaml,json} with the Redocly CLI, and
// copies them into the package ramp-api (src/client/dist/openapi/), which ships them as `ramp-api/openapi/*`.
// Bundling again what was bundled from the very same inputs is skipped (it took 2.5 s: six CLI runs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { allApiFamilies, clientBundleDir, distDir, repoRoot, type ApiFamily } from './apis.js';

const redocly = join(repoRoot, 'node_modules', '.bin', 'redocly');
/** The digest of the inputs the bundles were last made from, and of each bundle made. */
const INPUTS_FILE = join(distDir, '.bundled-from.json');

/**
 * A digest of everything a bundle is made from: redocly.yaml, every file under openapi/ (the descriptions, and
 * the lint plugin the configuration loads), and the Redocly CLI's version.
 */
export function bundleInputsDigest(): string {
  const hash = createHash('sha256');
  const cli = JSON.parse(readFileSync(join(repoRoot, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as { version: string };
  hash.update(`@redocly/cli ${cli.version}\0`);
  const files = [join(repoRoot, 'redocly.yaml'), ...(readdirSync(join(repoRoot, 'openapi'), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()];
  for (const file of files) hash.update(`${relative(repoRoot, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export function bundleAll(): ApiFamily[] {
  mkdirSync(distDir, { recursive: true });
  mkdirSync(clientBundleDir, { recursive: true });
  const apis = allApiFamilies();
  const digest = bundleInputsDigest();
  const outputs = apis.flatMap((api) => [api.bundleYaml, api.bundleJson]).flatMap((output) => [output, join(clientBundleDir, basename(output))]);
  // The record names the inputs and what each output held: an output changed or removed since is made again.
  const record = () => JSON.stringify({ inputs: digest, outputs: Object.fromEntries(outputs.map((output) => [relative(repoRoot, output), existsSync(output) ? createHash('sha256').update(readFileSync(output)).digest('hex') : null])) });
  if (existsSync(INPUTS_FILE) && readFileSync(INPUTS_FILE, 'utf8') === record()) return apis;
  // Forgotten first: bundles half rewritten by a run that stopped are not taken for current ones.
  rmSync(INPUTS_FILE, { force: true });
  for (const api of apis) {
    for (const output of [api.bundleYaml, api.bundleJson]) {
      // Written beside, then renamed: a reader running meanwhile (a test, a mock) sees the old file or the new.
      const partial = join(dirname(output), `.${process.pid}.${basename(output)}`);
      execFileSync(redocly, ['bundle', api.name, '-o', relative(repoRoot, partial)], {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      renameSync(partial, output);
      const copy = join(clientBundleDir, basename(output));
      copyFileSync(output, join(clientBundleDir, `.${process.pid}.${basename(output)}`));
      renameSync(join(clientBundleDir, `.${process.pid}.${basename(output)}`), copy);
    }
  }
  writeFileSync(INPUTS_FILE, record());
  return apis;
}
