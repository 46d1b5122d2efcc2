// Runs the contract suite against the real deployments in BUSINESS_API_URL / V1_API_URL through
// `prism proxy --errors`, so that Prism also checks every request and response against the description.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../scripts/openapi/apis.js';
import { bundleAll } from '../scripts/openapi/bundle.js';
import { type PrismServer, startPrism } from '../scripts/openapi/prism.js';

const apis = bundleAll().filter((api) => process.env[`${api.name.toUpperCase()}_API_URL`]);
if (apis.length === 0) {
  console.error(
    'Set BUSINESS_API_URL and/or V1_API_URL (and their credentials: docs/guides/real-deployment.md) to run the ' +
      'suite through prism proxy.',
  );
  process.exit(2);
}
const proxies: PrismServer[] = [];
const env: NodeJS.ProcessEnv = {
  ...process.env,
  CONTRACT_FAMILIES: apis.map((a) => a.name).join(','),
  CONTRACT_SKIP_BUNDLE: '1',
};
try {
  for (const api of apis) {
    const key = `${api.name.toUpperCase()}_API_URL`;
    const proxy = await startPrism({ bundle: api.bundleJson, upstream: process.env[key]! });
    proxies.push(proxy);
    env[key] = proxy.url;
    console.log(`${api.name}: prism proxy --errors ${proxy.url} -> ${process.env[key]}`);
  }
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      join(repoRoot, 'node_modules', '.bin', 'vitest'),
      ['run', 'contract-tests/contract.test.ts', 'contract-tests/negative.test.ts'],
      {
        cwd: repoRoot,
        env,
        stdio: 'inherit',
      },
    );
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  process.exitCode = code;
} finally {
  await Promise.all(proxies.map((p) => p.stop()));
}
