// A consuming team's first hour, as the README and the guides write it, on the packed packages: a project made
// by `npm init -y`, the guide's install lines run by npm itself (against a registry on 127.0.0.1 that serves
// only this machine's packages), the guide's tsconfig, every TypeScript block of the README and of every guide
// (docs/guides/*.md) compiled with
// the TypeScript `npm i typescript` installs (7) and with 5.9, then run against a sandbox started with
// `npx ramp-api-sandbox`. And the install budget: `ramp-api` alone adds at most its budget to node_modules
// and nothing beyond openapi-fetch and what openapi-fetch needs.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePagePath } from '../../src/sandbox/contract/reference.js';
import { EVENTS_VALIDATORS } from '../../src/sandbox/events/store.js';
import { arazzoFileNames } from '../../src/sandbox/journeys/arazzo-files.js';
import { SANDBOX_FAMILIES } from '../../src/sandbox/server.js';
import { MIGRATIONS_DIR } from '../../src/sandbox/store/migrate.js';
import { SNAPSHOT_FILE, SNAPSHOT_MANIFEST } from '../../src/sandbox/store/snapshot.js';
import type { LocalRegistry } from '../../src/testing/local-registry.js';
import { packAndServe } from '../../src/testing/packed-packages.js';
import { killTree } from '../../src/testing/process-tree.js';
import { PAGES } from '../build/build-sandbox-pages.js';
import { workflowsDir } from '../journeys/workflows.js';
import { allApiFamilies, repoRoot } from '../openapi/apis.js';
import { inventory, markedBlock, readGuides } from '../site/guides.js';

const run = promisify(execFile);
const budget = JSON.parse(readFileSync(join(repoRoot, 'scripts', 'checks', 'install-budget.json'), 'utf8')) as {
  package: string;
  installedBytes: number;
};
/** The text of the block between `<!-- name:start -->` and `<!-- name:end -->`, in the one file that has it. */
const marked = (name: string) => markedBlock(name).code;

/** Every TypeScript block of the README and of the guides, in order, with the file and line it starts on. */
const tsBlocks = [
  { file: 'README.md', text: readFileSync(join(repoRoot, 'README.md'), 'utf8') },
  ...readGuides().map((guide) => ({ file: guide.path, text: guide.text })),
].flatMap(({ file, text }) =>
  inventory(text)
    // The vitest blocks need vitest, which this project does not install: guide-vitest.e2e.test.ts runs them.
    .codeBlocks.filter((block) => block.lang === 'ts' && !block.marker?.startsWith('sandbox-vitest-'))
    .map((block) => ({ line: `${file} line ${block.line}`, code: `${block.code}\n` })),
);

/** What a block says it prints: the trailing comment of each `console.log(...)` line, in order. */
const expectedLines = (code: string) => [...code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((m) => m[1]!.trim());

const work = mkdtempSync(join(tmpdir(), 'ramp-consumer-'));
const children = new Set<ChildProcess>();
const stopAll = () => {
  for (const child of children) if (child.pid && child.exitCode === null) killTree(child.pid, 'SIGKILL');
};
process.once('exit', stopAll);
let registry: LocalRegistry;
/** Each package's files as `npm pack` listed them. */
let packedFiles: Record<string, string[]>;

/** The TypeScript sources under `dir` a package's tsconfig.build.json compiles (tests, cases and `skip` left out). */
const compiledSources = (dir: string, skip: RegExp) =>
  (readdirSync(join(repoRoot, dir), { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|cases|check)\.ts$/.test(file) && !skip.test(file))
    .flatMap((file) => [file.replace(/\.tsx?$/, '.js'), file.replace(/\.tsx?$/, '.d.ts')]);

const allowedFiles = {
  'ramp-api': () =>
    [
      'README.md',
      'package.json',
      ...compiledSources('src/client', /^(dist|node_modules|generated\/samples)\//).map((file) => `dist/lib/${file}`),
      // The JSON Schemas the sources import (the usage file's), which tsc copies beside the modules.
      ...(readdirSync(join(repoRoot, 'src', 'client'), { recursive: true }) as string[])
        .filter((file) => /\.schema\.json$/.test(file) && !/^(dist|node_modules)\//.test(file))
        .map((file) => `dist/lib/${file}`),
      ...allApiFamilies().flatMap((api) => [api.bundleJson, api.bundleYaml].map((f) => `dist/openapi/${basename(f)}`)),
      // The journeys, beside the bundles they name.
      ...arazzoFileNames(workflowsDir).map((file) => `dist/workflows/${file}`),
    ].sort(),
  'ramp-api-sandbox': () =>
    [
      'README.md',
      'package.json',
      ...compiledSources('src/sandbox', /^(dist|node_modules|pages|fidelity)\//).map((file) => `dist/${file}`),
      ...Object.keys(PAGES).flatMap((page) => [`dist/pages/${page}.html`, `dist/pages/${page}.js`]),
      'dist/pages/pages.css',
      ...[...SANDBOX_FAMILIES, EVENTS_VALIDATORS].map((set) => `dist/validators/${set}.cjs`),
      `dist/${basename(referencePagePath())}`,
      `dist/${SNAPSHOT_FILE}`,
      `dist/${SNAPSHOT_MANIFEST}`,
      ...readdirSync(MIGRATIONS_DIR)
        .filter((file) => file.endsWith('.sql'))
        .map((file) => `store/migrations/${file}`),
    ].sort(),
};
let tarballs: Record<string, string>;
let npmEnv: NodeJS.ProcessEnv;

/** Runs a command line of the README or a guide in `cwd` as a shell would, with npm pointed at the local registry. */
async function sh(cwd: string, line: string): Promise<string> {
  const { stdout, stderr } = await run('sh', ['-c', line], { cwd, env: npmEnv, maxBuffer: 16 * 1024 * 1024 });
  return stdout + stderr;
}

/**
 * Starts `command` (in this run's process group, so a Ctrl-C of the run reaches it too); resolves once `ready`
 * matches its output. It is stopped with the processes it started (npx's own children).
 */
function start(cwd: string, command: string, ready: RegExp, env: NodeJS.ProcessEnv, what: string, timeoutMs = 60_000) {
  const child = spawn('sh', ['-c', `exec ${command}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  // 'close', not 'exit': what it printed may still be arriving when it has exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: no ${ready} within ${timeoutMs} ms. Output:\n${out}`)),
      timeoutMs,
    );
    const look = (chunk: Buffer) => {
      out += String(chunk);
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before ${ready}. Output:\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) killTree(child.pid!, 'SIGTERM');
    await exited;
    children.delete(child);
  };
  return { matched, exited, stop, output: () => out };
}

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? sizeOf(path) : entry.isSymbolicLink() ? 0 : statSync(path).size;
  }
  return total;
}

/** The packages npm installed in a project, from its hidden lockfile (`node_modules/.package-lock.json`). */
function installed(project: string): Map<string, { version: string; dependencies: string[] }> {
  const lock = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; dependencies?: Record<string, string> }>;
  };
  return new Map(
    Object.entries(lock.packages).map(([path, pkg]) => [
      path.replace(/^.*node_modules\//, ''),
      { version: pkg.version, dependencies: Object.keys(pkg.dependencies ?? {}) },
    ]),
  );
}

beforeAll(async () => {
  const packed = await packAndServe(work);
  ({ tarballs, registry, npmEnv } = packed);
  packedFiles = packed.files;
}, 180_000);

describe('the tarballs', () => {
  // Each file a package ships, derived from what the build makes: the compiled modules of its sources (tests and
  // what is not shipped left out), the bundled descriptions, the sandbox's pages, compiled validators, rendered
  // reference and PGlite snapshot. A file beyond the list (a module an older layout left in dist/, a test
  // helper) fails, and so does one missing.
  it.each(Object.keys(allowedFiles))('%s holds exactly the files it runs', (name) => {
    expect(packedFiles[name]).toEqual(allowedFiles[name as keyof typeof allowedFiles]());
  });
});

afterAll(async () => {
  stopAll();
  await registry?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A project with the client package alone (`npm init -y`, `npm i ramp-api`), made once for the tests that need one. */
let clientOnly: Promise<string> | undefined;
function clientOnlyProject(): Promise<string> {
  clientOnly ??= (async () => {
    const project = join(work, 'client-only');
    mkdirSync(project);
    await sh(project, 'npm init -y');
    await sh(project, `npm i ${tarballs[budget.package]}`);
    return project;
  })();
  return clientOnly;
}

describe('the client package, installed', () => {
  it(`adds at most ${budget.installedBytes} bytes to node_modules, and no package beyond openapi-fetch and what it needs`, async () => {
    const project = await clientOnlyProject();
    const packages = installed(project);
    // What openapi-fetch needs, read from what npm installed for it, not written down here.
    const allowed = new Set([budget.package]);
    const visit = (name: string) => {
      if (allowed.has(name) && name !== budget.package) return;
      allowed.add(name);
      for (const dep of packages.get(name)?.dependencies ?? []) visit(dep);
    };
    for (const dep of packages.get(budget.package)!.dependencies) visit(dep);
    expect(packages.get(budget.package)!.dependencies).toEqual(['openapi-fetch']);
    expect([...packages.keys()].filter(Boolean).sort()).toEqual([...allowed].sort());
    const bytes = sizeOf(join(project, 'node_modules'));
    console.log(`ramp-api installed: ${bytes} bytes in node_modules; packages: ${[...allowed].sort().join(', ')}`);
    expect(bytes).toBeLessThanOrEqual(budget.installedBytes);
  }, 120_000);
});

describe('the README and the guides, as written, in a new project', () => {
  const project = join(work, 'first-hour');
  let sandboxUrl: string;
  let sandbox: ReturnType<typeof start> | undefined;

  it('sets up the project with its commands (npm init, the installs, type module, tsconfig)', async () => {
    mkdirSync(project);
    for (const line of marked('consumer-setup').split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (!command) continue;
      await sh(project, command.replaceAll('/path/to/ramp-api/dist/', `${join(work, 'packs')}/`));
    }
    writeFileSync(join(project, 'tsconfig.json'), marked('consumer-tsconfig'));
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(pkg.type).toBe('module');
    expect(installed(project).get('typescript')?.version).toMatch(/^7\./);
  }, 120_000);

  it('compiles every TypeScript block of the README and the guides, and an import of every entry point, with TypeScript 7 and with 5.9', async () => {
    expect(tsBlocks.length).toBeGreaterThanOrEqual(6);
    mkdirSync(join(project, 'src'), { recursive: true });
    for (const [i, block] of tsBlocks.entries())
      writeFileSync(join(project, 'src', `block-${i + 1}.ts`), `// ${block.line}\n${block.code}`);
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'src', 'client', 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(manifest.exports).filter((key) => !key.includes('*') && !key.endsWith('.json'));
    writeFileSync(
      join(project, 'src', 'entries.ts'),
      [
        `import { createRequire } from 'node:module';`,
        ...entries.map((key, i) => `import * as entry${i} from '${join('ramp-api', key)}';`),
        `const counts = [${entries.map((_, i) => `Object.keys(entry${i}).length`).join(', ')}];`,
        `const bundle = createRequire(import.meta.url).resolve('ramp-api/openapi/v1.json');`,
        `console.log(JSON.stringify({ counts, bundle: bundle.endsWith('v1.json') }));`,
      ].join('\n'),
    );
    // TypeScript 7 as the guide's setup installed it (npx tsc); then 5.9, the repository's own 5.9.3 compiler
    // run in the project (what `npm i -D typescript@5.9` would install, without a second install).
    const compilers = [
      { version: '7', command: 'npx tsc' },
      { version: '5.9', command: `node ${join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc')}` },
    ];
    // Both at once: each checks the same sources on its own; only TypeScript 7, the compiler the guide's setup
    // installs, writes its output (5.9 runs with --noEmit), which the next test runs.
    await Promise.all(
      compilers.map(async ({ version, command }, i) => {
        expect((await sh(project, `${command} --version`)).trim()).toMatch(
          new RegExp(`^Version ${version.replace('.', '\\.')}`),
        );
        await sh(project, i === 0 ? command : `${command} --noEmit`).catch((error: { stdout?: string }) => {
          throw new Error(`TypeScript ${version} refused the guides' code:\n${error.stdout ?? String(error)}`);
        });
      }),
    );
    const out = JSON.parse(await sh(project, 'node dist/entries.js')) as { counts: number[]; bundle: boolean };
    expect(out.counts.every((n) => n > 0) && out.bundle).toBe(true);
  }, 180_000);

  it('`npx ramp-api-sandbox` starts the sandbox, and every block runs against it and prints what its comments say', async () => {
    sandbox = start(
      project,
      'npx ramp-api-sandbox --port 0 --memory',
      /Sandbox:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ctrl-C to stop\./,
      npmEnv,
      'npx ramp-api-sandbox',
    );
    sandboxUrl = (await sandbox.matched)[1]!;
    const env = { ...npmEnv, SANDBOX_URL: sandboxUrl, PORT: '0' };
    for (const [i, block] of tsBlocks.entries()) {
      const expected = expectedLines(block.code);
      const what = `the block at ${block.line}`;
      const child = start(
        project,
        `node dist/block-${i + 1}.js`,
        expected.length
          ? new RegExp(expected.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*'))
          : /$^/,
        env,
        what,
      );
      const code = await Promise.race([
        child.exited,
        child.matched.then(
          () => 'printed' as const,
          () => 'failed' as const,
        ),
      ]);
      // A block that serves (the webhook receiver) runs until stopped, as it would in a terminal.
      if (code === 'printed') await child.stop();
      else {
        await child.stop();
        expect(code, `${what} exited with ${String(code)}:\n${child.output()}`).toBe(0);
      }
      const printed = child
        .output()
        .split('\n')
        .map((l) => l.trim());
      let at = 0;
      for (const line of expected) {
        const found = printed.indexOf(line, at);
        expect(found, `${what} did not print "${line}":\n${child.output()}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    }
  }, 240_000);

  it('`npx ramp-api sandbox` runs the same sandbox, and says in one line what to install where it is missing', async () => {
    expect(await sh(project, 'npx ramp-api sandbox --help')).toContain('--memory');
    const bare = await clientOnlyProject();
    const refused = await sh(bare, 'npx ramp-api sandbox').then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
    );
    expect(refused.code).toBe(2);
    expect(refused.output.trim().split('\n')).toEqual([expect.stringContaining('npm i -D ramp-api-sandbox')]);
  }, 120_000);

  it('`npx ramp-api usage` writes the project usage file once the guide installs the analyzer, and says in one line what to install where it is missing', async () => {
    const bare = await clientOnlyProject();
    const refused = await sh(bare, 'npx ramp-api usage').then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
    );
    expect(refused.code).toBe(2);
    expect(refused.output.trim().split('\n')).toEqual([expect.stringContaining('npm i -D ts-morph@28.0.0')]);
    for (const line of marked('consumer-usage').split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command) await sh(project, command);
    }
    const usage = JSON.parse(readFileSync(join(project, 'ramp-api-usage.json'), 'utf8')) as {
      consumer: string;
      operations: { calls: string[] }[];
    };
    expect(usage.consumer).toBe(basename(project));
    expect(usage.operations.flatMap((op) => op.calls).length).toBeGreaterThan(0);
  }, 180_000);

  afterAll(async () => {
    await sandbox?.stop();
  });
});
