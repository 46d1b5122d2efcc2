// The repository's two packages keep to themselves: nothing under src/ imports from scripts/ or
// contract-tests/, the client package (src/client/) imports nothing outside itself but openapi-fetch and
// Node's own modules, and the sandbox package's shipped code (src/sandbox/, tests aside) reaches the
// clients only as the package `ramp-api`, which is what it will find installed beside it. Tests, type tests and the
// compatibility rules' cases (`*.cases.ts`, which the build leaves out) count as tests.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/apis.js';

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield path;
  }
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)].map((m) => m[2]!);
}

const isTest = (file: string) =>
  /\.(test|e2e\.test|check|cases)\.tsx?$/.test(file) || file.includes(`${join('src', 'testing')}`);
const inside = (dir: string, file: string) => !relative(dir, file).startsWith('..');

describe('the layout of the two packages', () => {
  const src = join(repoRoot, 'src');
  const client = join(src, 'client');
  const sandbox = join(src, 'sandbox');
  const files = [...sources(src)];

  it('has sources to check', () => {
    expect(files.some((f) => inside(client, f)) && files.some((f) => inside(sandbox, f))).toBe(true);
  });

  it('imports nothing under src/ from scripts/ or contract-tests/', () => {
    const crossing = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(file), s))
        .filter(
          (target) => inside(join(repoRoot, 'scripts'), target) || inside(join(repoRoot, 'contract-tests'), target),
        )
        .map((target) => `${relative(repoRoot, file)} -> ${relative(repoRoot, target)}`),
    );
    expect(crossing).toEqual([]);
  });

  it('keeps the client package to itself, openapi-fetch, node:* and its optional peers', () => {
    // The optional peers (ts-morph, ajv) serve `ramp-api usage` alone, loaded only when it runs.
    const { peerDependenciesMeta = {} } = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8')) as {
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const optional = Object.keys(peerDependenciesMeta).filter((name) => peerDependenciesMeta[name]!.optional);
    const packageOf = (s: string) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!);
    const outside = files
      .filter((file) => inside(client, file) && !isTest(file))
      .flatMap((file) =>
        specifiers(file)
          .filter((s) =>
            s.startsWith('.')
              ? !inside(client, resolve(dirname(file), s))
              : !s.startsWith('node:') && s !== 'openapi-fetch' && !optional.includes(packageOf(s)),
          )
          .map((s) => `${relative(repoRoot, file)} -> ${s}`),
      );
    // The `ramp-api` command finds the sandbox where it is installed, by a name held in a variable.
    expect(outside).toEqual([]);
  });

  it("reaches the clients from the sandbox package's shipped code only as the package ramp-api", () => {
    const manifest = JSON.parse(readFileSync(join(sandbox, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const outside = files
      .filter((file) => inside(sandbox, file) && !isTest(file))
      .flatMap((file) =>
        specifiers(file)
          .filter((s) => {
            if (s.startsWith('.')) return !inside(sandbox, resolve(dirname(file), s));
            if (s.startsWith('node:')) return false;
            const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
            // The pages are bundled at build time (Preact goes into the bundle), so it is a build dependency.
            if (file.includes(`${join('sandbox', 'pages')}`) && name.startsWith('preact')) return false;
            return !(name in manifest.dependencies);
          })
          .map((s) => `${relative(repoRoot, file)} -> ${s}`),
      );
    expect(outside).toEqual([]);
  });
});
