// A small consuming project in a temporary folder, for the usage extractor's tests: its files as given, a
// tsconfig.json like a consumer's, and node_modules linking this repository's built ramp-api (src/client, with
// its dist/), openapi-fetch and @types, as an installed package would resolve.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './repo.js';

export const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['src'],
};

/** Makes the project and returns its folder. `files` are paths relative to it (`src/a.ts`); `tsconfig` null: none. */
export function makeUsageProject(
  name: string,
  files: Record<string, string>,
  tsconfig: unknown = CONSUMER_TSCONFIG,
): string {
  const dir = mkdtempSync(join(tmpdir(), `usage-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  if (tsconfig !== null) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'src', 'client'), join(dir, 'node_modules', 'ramp-api'));
  symlinkSync(join(repoRoot, 'node_modules', 'openapi-fetch'), join(dir, 'node_modules', 'openapi-fetch'));
  symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
