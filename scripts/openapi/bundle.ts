// Bundles every API family in redocly.yaml into dist/openapi/<name>.{yaml,json} with the Redocly CLI, and
// copies them into the package ramp-api (src/client/dist/openapi/), which ships them as `ramp-api/openapi/*`.
// Two CLI runs make all six (one per format, every family in each, as redocly.yaml with an output per family);
// bundling again what was bundled from the very same inputs is skipped.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { type ApiFamily, allApiFamilies, clientBundleDir, distDir, repoRoot } from './apis.js';
import { type RedoclyJob, runRedoclyJob, runRedoclyJobAsync } from './redocly.js';

/** The digest of the inputs the bundles were last made from, and of each bundle made. */
const INPUTS_FILE = join(distDir, '.bundled-from.json');

/**
 * A digest of everything a bundle is made from: redocly.yaml, every file under openapi/ (the descriptions, and
 * the lint plugin the configuration loads), and the Redocly CLI's version.
 */
export function bundleInputsDigest(): string {
  const hash = createHash('sha256');
  const cli = JSON.parse(readFileSync(join(repoRoot, 'node_modules', '@redocly', 'cli', 'package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`@redocly/cli ${cli.version}\0`);
  const files = [
    join(repoRoot, 'redocly.yaml'),
    ...(readdirSync(join(repoRoot, 'openapi'), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort(),
  ];
  for (const file of files)
    hash
      .update(`${relative(repoRoot, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

interface BundlePlan extends RedoclyJob {
  apis: ApiFamily[];
}

function planBundles(): BundlePlan {
  mkdirSync(distDir, { recursive: true });
  mkdirSync(clientBundleDir, { recursive: true });
  const apis = allApiFamilies();
  const digest = bundleInputsDigest();
  const outputs = apis
    .flatMap((api) => [api.bundleYaml, api.bundleJson])
    .flatMap((output) => [output, join(clientBundleDir, basename(output))]);
  // The record names the inputs and what each output held: an output changed or removed since is made again.
  const record = () =>
    JSON.stringify({
      inputs: digest,
      outputs: Object.fromEntries(
        outputs.map((output) => [
          relative(repoRoot, output),
          existsSync(output) ? createHash('sha256').update(readFileSync(output)).digest('hex') : null,
        ]),
      ),
    });
  const nothing = { apis, runs: [], finish: () => undefined, clean: () => undefined };
  if (existsSync(INPUTS_FILE) && readFileSync(INPUTS_FILE, 'utf8') === record()) return nothing;
  // Forgotten first: bundles half rewritten by a run that stopped are not taken for current ones.
  rmSync(INPUTS_FILE, { force: true });
  // The runs write into a folder of their own, then each bundle is renamed into place: a reader running
  // meanwhile (a test, a mock) sees the old file or the new.
  const work = join(distDir, `.bundling-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  // redocly.yaml as it is, with an output per family and its paths made absolute (the copy lives in `work`).
  const config = parse(readFileSync(join(repoRoot, 'redocly.yaml'), 'utf8')) as {
    plugins?: string[];
    apis: Record<string, { root: string; output?: string }>;
  };
  config.plugins = config.plugins?.map((plugin) => resolve(repoRoot, plugin));
  for (const api of apis)
    config.apis[api.name] = {
      ...config.apis[api.name]!,
      root: resolve(repoRoot, api.root),
      output: join(work, `${api.name}.yaml`),
    };
  const configFile = join(work, 'redocly.yaml');
  writeFileSync(configFile, stringify(config));
  // Removed also when this process ends meanwhile (an interrupted build or test run).
  const clean = () => {
    process.off('exit', clean);
    rmSync(work, { recursive: true, force: true });
  };
  process.once('exit', clean);
  return {
    apis,
    runs: [
      ['bundle', '--config', configFile],
      ['bundle', '--config', configFile, '--ext', 'json'],
    ],
    finish: () => {
      for (const api of apis) {
        for (const output of [api.bundleYaml, api.bundleJson]) {
          const made = join(work, basename(output));
          const copy = join(work, `copy.${basename(output)}`);
          copyFileSync(made, copy);
          renameSync(made, output);
          renameSync(copy, join(clientBundleDir, basename(output)));
        }
      }
      writeFileSync(INPUTS_FILE, record());
    },
    clean,
  };
}

/** Bundles every family (both formats), unless the bundles are current; returns the families. */
export function bundleAll(): ApiFamily[] {
  const plan = planBundles();
  runRedoclyJob(plan);
  return plan.apis;
}

/** bundleAll, with both CLI runs at once and without blocking this process meanwhile. */
export async function bundleAllAsync(): Promise<ApiFamily[]> {
  const plan = planBundles();
  await runRedoclyJobAsync(plan);
  return plan.apis;
}
