// In the repository, `ramp-api` is its source (src/client/), and so is `ramp-api-sandbox` (src/sandbox/): the
// `paths` of tsconfig.json, which tsc and tsx read, turned into the aliases vitest (vite) reads, so the two cannot
// disagree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function sourceAliases(root: string): { find: RegExp; replacement: string }[] {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { paths?: Record<string, string[]> };
  };
  // Longest pattern first: `ramp-api/openapi/*` before `ramp-api/*`, as TypeScript picks the longest prefix.
  return Object.entries(compilerOptions.paths ?? {})
    .sort(([a], [b]) => b.length - a.length)
    .map(([pattern, [target]]) => {
      const escaped = pattern.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&').replace('*', '(.+)');
      return { find: new RegExp(`^${escaped}$`), replacement: join(root, target!).replace('*', '$1') };
    });
}
