// Bundles every API family in redocly.yaml into dist/openapi/<name>.{yaml,json} with the Redocly CLI, and
// copies them into the package ramp-api (src/client/dist/openapi/), which ships them as `ramp-api/openapi/*`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { allApiFamilies, clientBundleDir, distDir, repoRoot, type ApiFamily } from './apis.js';

const redocly = join(repoRoot, 'node_modules', '.bin', 'redocly');

export function bundleAll(): ApiFamily[] {
  mkdirSync(distDir, { recursive: true });
  mkdirSync(clientBundleDir, { recursive: true });
  const apis = allApiFamilies();
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
  return apis;
}
