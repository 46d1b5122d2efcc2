// Test support: runs a TypeScript block of the README, found between `<!-- NAME:start -->` and
// `<!-- NAME:end -->`, as written, against this checkout's built packages (the tests' global setup builds
// them): the block is stripped of its types by esbuild, its `ramp-api` and `ramp-api-sandbox` imports are
// pointed at what they resolve to from the repository (the packages' dist/), and it runs in plain Node.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transformSync } from 'esbuild';

import { repoRoot } from './repo.js';

/** The block's standard output, run with `env` added to the environment. */
export async function runReadmeBlock(name: string, env: Record<string, string>): Promise<string> {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(
    readme,
  )?.[1];
  if (!block) throw new Error(`README has no ${name} block`);
  // As a consumer's Node resolves them, from the repository (its node_modules links both workspaces).
  const resolve = createRequire(join(repoRoot, 'package.json')).resolve;
  const code = transformSync(block, { loader: 'ts', format: 'esm', target: 'node20' }).code.replace(
    /from (['"])(ramp-api(?:-sandbox)?(?:\/[a-z0-9-]+)?)\1/g,
    (_, quote: string, specifier: string) => `from ${quote}${pathToFileURL(resolve(specifier)).href}${quote}`,
  );
  const dir = mkdtempSync(join(tmpdir(), `ramp-${name}-`));
  try {
    writeFileSync(join(dir, `${name}.mjs`), code);
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, `${name}.mjs`)], {
      env: { ...process.env, ...env },
    });
    return stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
