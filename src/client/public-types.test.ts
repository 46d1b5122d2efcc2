// The cheap exit from openapi-fetch (contributing guide, "Decision: openapi-typescript and openapi-fetch"): no
// public type of the package is openapi-fetch's own (nor its types package's), so replacing the call layer under
// the clients would change no consumer's code. A declaration file can only name another package's type through
// an import of it, so none of the package's built declarations (`dist/lib/**/*.d.ts`, which the tests' global
// setup builds) may import either package.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const lib = join(import.meta.dirname, 'dist', 'lib');
const CALL_LAYER = new Set(['openapi-fetch', 'openapi-typescript-helpers']);

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? declarationFiles(join(dir, entry.name))
      : entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The packages a declaration file imports from (`import`, `export ... from`, `import('...')` in a type). */
function importedPackages(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => !name.startsWith('.'))
    .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!));
}

describe("the package's public types", () => {
  it('name none of openapi-fetch: each declaration file imports neither it nor its types package', () => {
    const files = declarationFiles(lib);
    expect(files.length).toBeGreaterThan(20);
    const naming = files.flatMap((file) =>
      importedPackages(file)
        .filter((name) => CALL_LAYER.has(name))
        .map((name) => `${relative(lib, file)} imports ${name}`),
    );
    expect(naming).toEqual([]);
  });
});
