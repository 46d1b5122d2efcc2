// `npx ramp-api usage` as a consuming team runs it (the built command): the usage file written, `--check`
// against a newer description given as a bundle file (JSON or YAML), a URL (a server on loopback), the folder of
// a newer ramp-api, or its package tarball (a file, or its URL on loopback; and the tarball `npm pack` makes of
// the current build, which carries the bundles), `--from` checking the usage file an earlier run wrote (the same
// report, the project not read again; a line if it was built against other descriptions), and bad input refused
// with one named line, exit status 2 and no file written (an unreachable URL with its cause; a tarball too large,
// truncated, of another package or without descriptions). The project's analysis takes
// seconds: it runs for the usage file, for one --check and for the project that does not compile; the other
// checks take the usage file the first run wrote.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freePort, startLocalServer } from '../../testing/local-server.js';
import { rampApiManifest, writePackageTarball } from '../../testing/package-tarball.js';
import { readBundleJson, repoRoot } from '../../testing/repo.js';
import { makeUsageProject, runUsageCommand } from '../../testing/usage-project.js';
import { TARGET_LIMITS } from './target-bytes.js';

const run = promisify(execFile);

const PAYOUT = `import { createV1Client } from 'ramp-api/v1';
const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:9' });
export async function pay(userId: string) {
  const { data } = await v1.createPayout({
    params: { path: { user_id: userId } },
    body: { amount: 5, currency: 'COP', destinationId: 'd' },
  });
  return data?.id;
}
`;
const READ_LINE = 'src/pay.ts:8';

const usage = runUsageCommand;

/** A copy of the v1 bundle without the payout's `id`, written to `file`. */
function newerV1(): Record<string, any> {
  const doc = readBundleJson<Record<string, any>>('v1');
  delete doc.components.schemas.Payout.properties.id;
  doc.components.schemas.Payout.required = doc.components.schemas.Payout.required.filter((n: string) => n !== 'id');
  return doc;
}

/** The package tarball of a newer ramp-api (0.2.0, with newerV1), as `npm pack` makes it, in the project. */
const newerTarball = (name = 'ramp-api-0.2.0.tgz') =>
  writePackageTarball(join(project, name), {
    'package.json': rampApiManifest('0.2.0'),
    'dist/openapi/v1.json': JSON.stringify(newerV1()),
    'dist/openapi/business.json': JSON.stringify(readBundleJson('business')),
  });

const folders: string[] = [];
let project: string;
let usageFile: string;
/** The first run over the project (its usage file), made once for the tests that read what it wrote. */
let firstRun: Promise<Awaited<ReturnType<typeof usage>>> | undefined;
const written = () => {
  firstRun ??= usage(project);
  return firstRun;
};
beforeAll(() => {
  project = makeUsageProject('pay-app', { 'src/pay.ts': PAYOUT });
  usageFile = join(project, 'ramp-api-usage.json');
  folders.push(project);
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('npx ramp-api usage', () => {
  it('writes the project usage file, sorted, beside its tsconfig.json', async () => {
    const { code } = await written();
    expect(code).toBe(0);
    const file = JSON.parse(readFileSync(usageFile, 'utf8'));
    expect(file.consumer).toBe('pay-app');
    expect(file.operations[0].responseFields).toEqual([
      { pointer: '/components/schemas/Payout/properties/id', sites: [READ_LINE] },
    ]);
  }, 60_000);

  describe('--check NEW says which lines a newer description breaks, in the gate words, with the rule', () => {
    const expectBreaks = (result: { code: number; stdout: string }) => {
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        'BREAKING  v1 POST /api/v1/admin/fiats/{user_id}/payout (createPayout): response 201: id: field removed [response-field-removed]',
      );
      expect(result.stdout).toContain(`breaks pay-app (${READ_LINE})`);
    };

    /** `--check` with the usage file the first run wrote (`--from`): the project is not read again. */
    const checkSaved = async (...args: string[]) => {
      expect((await written()).code).toBe(0);
      return usage(project, '--from', usageFile, ...args);
    };

    it('a bundle file; with --from the usage file written before, the same report', async () => {
      const file = join(project, 'v1-next.json');
      writeFileSync(file, JSON.stringify(newerV1()));
      const read = await usage(project, '--check', file);
      expectBreaks(read);
      const saved = await checkSaved('--check', file);
      expect(saved).toEqual({ ...read, stderr: '' });
    }, 60_000);

    it('a URL', async () => {
      const body = JSON.stringify(newerV1());
      const server = await startLocalServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
      try {
        expectBreaks(await checkSaved('--check', `${server.url}/openapi/v1.json`));
      } finally {
        await server.close();
      }
    }, 60_000);

    it('a YAML bundle: a newer one, and the one the package ships (nothing changed)', async () => {
      const file = join(project, 'v1-next.yaml');
      writeFileSync(file, stringify(newerV1()));
      expectBreaks(await checkSaved('--check', file));
      const shipped = await checkSaved('--check', join(repoRoot, 'src', 'client', 'dist', 'openapi', 'v1.yaml'));
      expect(shipped.code).toBe(0);
      expect(shipped.stdout).toContain('No breaking change affects pay-app.');
    }, 60_000);

    it('the folder of a newer ramp-api', async () => {
      const folder = join(project, 'next-ramp-api');
      mkdirSync(join(folder, 'dist', 'openapi'), { recursive: true });
      writeFileSync(join(folder, 'dist', 'openapi', 'v1.json'), JSON.stringify(newerV1()));
      expectBreaks(await checkSaved('--check', folder));
    }, 60_000);

    it('the package tarball of a newer ramp-api, as npm pack makes it', async () => {
      expectBreaks(await checkSaved('--check', newerTarball()));
    }, 60_000);

    it("a package tarball's URL, as a registry serves it", async () => {
      const body = readFileSync(newerTarball());
      const server = await startLocalServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
      });
      try {
        expectBreaks(await checkSaved('--check', `${server.url}/ramp-api/-/ramp-api-0.2.0.tgz`));
      } finally {
        await server.close();
      }
    }, 60_000);

    it('the tarball npm pack makes of the current build: it carries the bundles, and nothing changed', async () => {
      const packs = join(project, 'packs');
      mkdirSync(packs);
      const { stdout } = await run(
        'npm',
        ['pack', '-w', 'ramp-api', '--ignore-scripts', '--json', '--pack-destination', packs, '--loglevel=warn'],
        { cwd: repoRoot },
      );
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      expect(packed!.files.map((f) => f.path)).toEqual(
        expect.arrayContaining(['package.json', 'dist/openapi/v1.json', 'dist/openapi/business.json']),
      );
      const result = await checkSaved('--check', join(packs, packed!.filename));
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('No breaking change affects pay-app.');
    }, 60_000);

    it('--from a usage file built against other descriptions than the installed ramp-api: one line says so', async () => {
      expect((await written()).code).toBe(0);
      const old = join(project, 'old-usage.json');
      const saved = JSON.parse(readFileSync(usageFile, 'utf8'));
      const other = `sha256:${'0'.repeat(64)}`;
      writeFileSync(old, JSON.stringify({ ...saved, descriptions: { v1: other } }));
      const installed = saved.descriptions.v1 as string;
      const target = join(project, 'v1-target.json');
      writeFileSync(target, JSON.stringify(readBundleJson('v1')));
      const result = await usage(project, '--check', target, '--from', old);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')).toContain(
        `pay-app was built against other v1 descriptions (sha256:000000000000) than the installed ramp-api's (${installed.slice(0, 19)}): run \`npx ramp-api usage\` again.`,
      );
    }, 60_000);

    it('nothing the project uses changed: exit 0', async () => {
      const file = join(project, 'v1-same.json');
      writeFileSync(file, JSON.stringify(readBundleJson('v1')));
      const result = await checkSaved('--check', file);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('No breaking change affects pay-app.');
    }, 60_000);
  });

  describe('bad input: one named line, exit status 2, no file written', () => {
    const refused = async (dir: string, args: string[], pattern: RegExp) => {
      const out = join(dir, 'out-usage.json');
      const result = await usage(dir, '--out', out, ...args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(pattern);
      expect(existsSync(out)).toBe(false);
    };

    it('a project without tsconfig.json', async () => {
      const dir = makeUsageProject('no-config', { 'src/pay.ts': PAYOUT }, null);
      folders.push(dir);
      await refused(dir, [], /^NoTsconfigError: No tsconfig\.json in /);
    }, 60_000);

    it('a project that does not compile', async () => {
      const dir = makeUsageProject('broken', { 'src/pay.ts': PAYOUT.replace('data?.id', 'data?.identifier') });
      folders.push(dir);
      await refused(
        dir,
        [],
        /^ProjectCompileError: The project .* does not compile: src\/pay\.ts:8 Property 'identifier'/,
      );
    }, 60_000);

    it('a --check target that is not a description', async () => {
      const file = join(project, 'not-a-description.json');
      writeFileSync(file, JSON.stringify({ hello: 'world' }));
      await refused(
        project,
        ['--check', file],
        /^CheckTargetError: .*not-a-description\.json is not an OpenAPI description/,
      );
    }, 60_000);

    it('an unreachable URL, with its cause', async () => {
      const url = `http://127.0.0.1:${await freePort()}/openapi/v1.json`;
      await refused(project, ['--check', url], /^CheckTargetError: .* could not be fetched: connection refused\.$/);
    }, 60_000);

    it('--out a folder or a file in a missing folder, before the project is read, nothing left behind', async () => {
      for (const [out, pattern] of [
        [join(project, 'src'), /^OutFileError: --out .*src is not a regular file/],
        [join(project, 'missing', 'usage.json'), /^OutFileError: --out .*usage\.json: its folder does not exist\.$/],
      ] as const) {
        const result = await usage(project, '--out', out);
        expect(result.code).toBe(2);
        expect(result.stderr.trim()).toMatch(pattern);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(readdirSync(project).filter((f) => f.endsWith('.usage.tmp'))).toEqual([]);
      expect(readdirSync(join(project, 'src')).filter((f) => f.endsWith('.usage.tmp'))).toEqual([]);
    }, 60_000);
    describe('a package tarball it cannot read', () => {
      const tgz = (name: string, files: Record<string, string | Buffer>) =>
        writePackageTarball(join(project, name), files);
      const MiB = 2 ** 20;

      it('truncated', async () => {
        const whole = readFileSync(newerTarball('whole.tgz'));
        const cut = join(project, 'cut.tgz');
        writeFileSync(cut, whole.subarray(0, whole.length - 100));
        await refused(
          project,
          ['--check', cut],
          /^CheckTargetError: .*cut\.tgz is truncated: its gzip data ends early\.$/,
        );
      }, 60_000);

      it('larger than a package is, and a description in it larger than one is', async () => {
        const big = join(project, 'big.tgz');
        writeFileSync(big, '');
        truncateSync(big, TARGET_LIMITS.maxBytes + 1);
        await refused(
          project,
          ['--check', big],
          /^CheckTargetError: .*big\.tgz is larger than \d+ MiB, more than any ramp-api package or description\.$/,
        );
        const entry = tgz('big-entry.tgz', {
          'package.json': rampApiManifest(),
          'dist/openapi/v1.json': ' '.repeat(TARGET_LIMITS.maxEntryBytes + 1),
        });
        expect(TARGET_LIMITS.maxEntryBytes).toBeLessThan(32 * MiB);
        await refused(
          project,
          ['--check', entry],
          /^CheckTargetError: .*big-entry\.tgz: package\/dist\/openapi\/v1\.json is larger than \d+ MiB, more than any description or package\.json\.$/,
        );
      }, 60_000);

      it('of another package, and of a ramp-api without descriptions', async () => {
        const other = tgz('left-pad-1.3.0.tgz', {
          'package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0' }),
        });
        await refused(
          project,
          ['--check', other],
          /^CheckTargetError: .*left-pad-1\.3\.0\.tgz is not a ramp-api package: its package\/package\.json names "left-pad"\.$/,
        );
        const bare = tgz('ramp-api-0.0.1.tgz', { 'package.json': rampApiManifest('0.0.1'), 'README.md': '' });
        await refused(
          project,
          ['--check', bare],
          /^CheckTargetError: .*ramp-api-0\.0\.1\.tgz is ramp-api 0\.0\.1 without descriptions \(no package\/dist\/openapi\/<family>\.json\)\.$/,
        );
      }, 60_000);
    });

    it('--from with --out and without --check', async () => {
      await refused(project, ['--from', usageFile], /^UsageError: --from FILE goes with --check NEW alone/);
    }, 60_000);
  });
});
