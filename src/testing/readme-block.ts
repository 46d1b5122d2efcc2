// Test support: runs a TypeScript block of the README or of a guide (docs/guides/*.md), found between
// `<!-- NAME:start -->` and `<!-- NAME:end -->` in exactly one of those files, as written, against this checkout's built packages (the tests' global setup builds
// them): the block is stripped of its types by esbuild, its `ramp-api` and `ramp-api-sandbox` imports are
// pointed at what they resolve to from the repository (the packages' dist/), and it runs in plain Node.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transformSync } from 'esbuild';

import { repoRoot } from './repo.js';

/** The block's standard output, run with `env` added to the environment. */
export async function runReadmeBlock(name: string, env: Record<string, string>): Promise<string> {
  const guides = join(repoRoot, 'docs', 'guides');
  const files = [
    'README.md',
    ...readdirSync(guides)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', 'guides', f)),
  ];
  const pattern = new RegExp(`<!-- ${name}:start -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`);
  const found = files.flatMap((file) => pattern.exec(readFileSync(join(repoRoot, file), 'utf8'))?.[1] ?? []);
  // One place only: a block copied into a second file could drift from the one that runs.
  if (found.length !== 1) throw new Error(`${found.length} files of README.md and docs/guides/ have a ${name} block`);
  const block = found[0]!;
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
