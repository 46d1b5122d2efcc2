// Test support: runs a TypeScript block of the README, found between `<!-- NAME:start -->` and
// `<!-- NAME:end -->`, as written, with `ramp-api` imports pointed at this checkout's sources.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from './repo.js';

/** The block's standard output, run with tsx and `env` added to the environment. */
export async function runReadmeBlock(name: string, env: Record<string, string>): Promise<string> {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(readme)?.[1];
  if (!block) throw new Error(`README has no ${name} block`);
  const code = block
    .replaceAll("from 'ramp-api-sandbox'", `from '${join(repoRoot, 'src', 'sandbox', 'index.ts')}'`)
    .replace(/from 'ramp-api\/([a-z0-9-]+)'/g, (_, entry: string) => `from '${join(repoRoot, 'src', 'client', entry, 'index.ts')}'`)
    .replaceAll("from 'ramp-api'", `from '${join(repoRoot, 'src', 'client', 'index.ts')}'`);
  const dir = mkdtempSync(join(tmpdir(), `ramp-${name}-`));
  try {
    writeFileSync(join(dir, `${name}.mts`), code);
    const { stdout } = await promisify(execFile)(join(repoRoot, 'node_modules', '.bin', 'tsx'), [join(dir, `${name}.mts`)], { env: { ...process.env, ...env } });
    return stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
