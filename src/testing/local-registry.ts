// Test support: an npm registry on 127.0.0.1 that serves only what this machine already has, the packages
// installed under this checkout's node_modules and the tarballs `npm pack` just made, so that a test can run
// `npm install` in a fresh project exactly as a user would, without reaching the public registry.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const run = promisify(execFile);
const gzipAsync = promisify(gzip);

interface Manifest {
  name: string;
  version: string;
  [key: string]: unknown;
}

interface Entry {
  manifest: Manifest;
  /** A package folder to pack on request, or a tarball to send as it is. */
  source: { dir: string } | { tarball: string };
}

export interface LocalRegistry {
  url: string;
  /** Every tarball the registry sent, as `name@version`. */
  served: Set<string>;
  close(): Promise<void>;
}

/** The fields of a package.json that npm reads when it resolves and installs a version (no scripts). */
const KEPT = [
  'name',
  'version',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'libc',
  'type',
];

function manifestOf(pkg: Record<string, unknown>): Manifest {
  return Object.fromEntries(KEPT.filter((key) => key in pkg).map((key) => [key, pkg[key]])) as Manifest;
}

/** Every package folder below `modules` (scoped ones and nested node_modules included). */
function* packageDirs(modules: string): Generator<string> {
  if (!existsSync(modules)) return;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@')
      ? readdirSync(join(modules, name)).map((n) => join(modules, name, n))
      : [join(modules, name)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      yield dir;
      yield* packageDirs(join(dir, 'node_modules'));
    }
  }
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const [p, q] = [x[i], y[i]];
    if (p === q) continue;
    if (p === undefined) return 1; // 1.0.0 > 1.0.0-rc
    if (q === undefined) return -1;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    return String(p) < String(q) ? -1 : 1;
  }
  return 0;
}

/**
 * The optional dependencies of the served packages that this machine has no copy of: another platform's build
 * (`lightningcss-darwin-arm64`), which npm skipped when it installed here. Each is served as a version of the range
 * asked for, for every operating system but this one: npm records it in a lockfile and skips it, as it does with
 * another platform's build from the public registry, so that `npm ci` finds the lockfile complete.
 */
function absentOptionals(packages: Map<string, Map<string, Entry>>): Map<string, Map<string, Entry>> {
  const absent = new Map<string, Map<string, Entry>>();
  for (const versions of packages.values())
    for (const { manifest } of versions.values())
      for (const [name, range] of Object.entries((manifest.optionalDependencies ?? {}) as Record<string, string>)) {
        const version = /\d+\.\d+\.\d+/.exec(range)?.[0];
        if (packages.has(name) || !version) continue;
        const entry: Entry = {
          manifest: { name, version, os: [`!${process.platform}`] },
          // Never sent: the tarball route serves only the packages this machine has.
          source: { tarball: '/nonexistent' },
        };
        absent.set(name, (absent.get(name) ?? new Map<string, Entry>()).set(version, entry));
      }
  return absent;
}

/**
 * Serves the packages found under `nodeModules` (each version it finds, also where several are installed)
 * and `tarballs` (packed packages, which win over an installed copy of the same version). `latest` is the
 * highest version of each; a package it does not have is a 404, as the public registry answers.
 */
export async function startLocalRegistry(options: {
  nodeModules: string[];
  tarballs: string[];
}): Promise<LocalRegistry> {
  const packages = new Map<string, Map<string, Entry>>();
  const add = (manifest: Manifest, source: Entry['source']) => {
    if (!manifest.name || !manifest.version) return;
    const versions = packages.get(manifest.name) ?? new Map<string, Entry>();
    if ('tarball' in source || !versions.has(manifest.version)) versions.set(manifest.version, { manifest, source });
    packages.set(manifest.name, versions);
  };
  for (const modules of options.nodeModules) {
    for (const dir of packageDirs(modules)) {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      if (typeof pkg.name === 'string' && typeof pkg.version === 'string') add(manifestOf(pkg), { dir });
    }
  }
  for (const tarball of options.tarballs) {
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json'], { maxBuffer: 16 * 1024 * 1024 });
    add(manifestOf(JSON.parse(stdout) as Record<string, unknown>), { tarball });
  }

  const absent = absentOptionals(packages);

  const packed = new Map<string, Promise<Buffer>>();
  const tarballOf = (entry: Entry): Promise<Buffer> => {
    const key = `${entry.manifest.name}@${entry.manifest.version}`;
    let bytes = packed.get(key);
    if (!bytes) {
      const { source } = entry;
      bytes =
        'tarball' in source
          ? Promise.resolve(readFileSync(source.tarball))
          : // Gzip's format without its compression (level 0): on loopback, compressing PGlite and TypeScript
            // (even at gzip -1) cost more CPU than sending their bytes as they are.
            run(
              'tar',
              ['-cf', '-', '--exclude=./node_modules', '--transform', 's,^\\.,package,', '-C', source.dir, '.'],
              {
                encoding: 'buffer',
                maxBuffer: 512 * 1024 * 1024,
              },
            ).then(({ stdout }) => gzipAsync(stdout, { level: 0 }));
      packed.set(key, bytes);
    }
    return bytes;
  };

  const served = new Set<string>();
  let base = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
      const tarball = /^-\/(.+)@([^@/]+)\.tgz$/.exec(path);
      if (tarball) {
        const entry = packages.get(tarball[1]!)?.get(tarball[2]!);
        if (!entry) return res.writeHead(404).end();
        const bytes = await tarballOf(entry);
        served.add(`${tarball[1]}@${tarball[2]}`);
        return res
          .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length })
          .end(bytes);
      }
      const versions = packages.get(path) ?? absent.get(path);
      if (!versions) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      const sorted = [...versions.keys()].sort(compareVersions);
      const body = {
        name: path,
        'dist-tags': { latest: sorted.filter((v) => !v.includes('-')).at(-1) ?? sorted.at(-1) },
        versions: Object.fromEntries(
          [...versions].map(([version, { manifest }]) => [
            version,
            { ...manifest, dist: { tarball: `${base}/-/${encodeURIComponent(`${path}@${version}`)}.tgz` } },
          ]),
        ),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
