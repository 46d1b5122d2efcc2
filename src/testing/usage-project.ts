// A small consuming project in a temporary folder, for the usage extractor's tests: its files as given, a
// tsconfig.json like a consumer's, and node_modules linking this repository's built ramp-api (src/client, with
// its dist/), openapi-fetch and @types, as an installed package would resolve; and the usage files of the example
// consumers in contract-tests/consumers/.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { extractUsage } from '../client/usage/extract.js';
import type { UsageFile } from '../client/usage/usage-file.js';
import { repoRoot } from './repo.js';

const run = promisify(execFile);

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

/** `src/file.ts:N`: the line of the fixture's `files` that holds the marker comment `// marker`. */
export function markerSite(files: Record<string, string>, marker: string): string {
  for (const [file, text] of Object.entries(files)) {
    const index = text.split('\n').findIndex((line) => line.includes(`// ${marker}`));
    if (index >= 0) return `${file}:${index + 1}`;
  }
  throw new Error(`No marker ${marker}`);
}

/** The example consuming projects of contract-tests/consumers/, each a folder of its own. */
export const EXAMPLE_CONSUMERS = join(repoRoot, 'contract-tests', 'consumers');

/** The names of the example consumers: the folders of contract-tests/consumers/, in name order. */
export const exampleConsumerNames = (): string[] =>
  readdirSync(EXAMPLE_CONSUMERS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/**
 * A cache for the life of the process (a test worker): the declaration files the projects read by the tests have
 * in common (TypeScript's lib files, @types/node, ramp-api's built types), parsed and bound by the first
 * extraction that needs them and taken by every later one, as a provider reading its consumers in one process
 * does (`shared` of the extractor). Those files do not change while the tests run: the build comes before them.
 * That an extraction reads the same with and without it is a test of its own (extract.test.ts).
 */
const workerDeclarations = {};

/** A project's usage, read by the extractor as `npx ramp-api usage` reads it, with the worker's declarations. */
export const extractTestUsage = (projectDir: string) => extractUsage({ projectDir, shared: workerDeclarations });

/** The usage files of the example consumers (each folder of contract-tests/consumers/, in name order). */
export async function exampleConsumerUsages(): Promise<UsageFile[]> {
  const usages: UsageFile[] = [];
  for (const name of exampleConsumerNames()) usages.push((await extractTestUsage(join(EXAMPLE_CONSUMERS, name))).usage);
  return usages;
}

/** `npx ramp-api usage --project DIR ...args` as a process (the built package's bin): its exit status and output. */
export async function runUsageCommand(project: string, ...args: string[]) {
  const bin = join(repoRoot, 'src', 'client', 'dist', 'lib', 'bin.js');
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, 'usage', '--project', project, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}
