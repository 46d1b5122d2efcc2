// A PGlite data folder with the sandbox's tables already made, written at build time (`npm run build`, and the
// test setup) beside the compiled sandbox and shipped in the package. A new store, in memory or in a fresh
// --data folder, starts from it instead of running initdb and the migrations, which take most of a start.
//
// It holds nothing of any tenant or sandbox: no signing key (each store makes its own at its first start), no
// records. Its key names the PGlite version and the migrations it was made with; a snapshot with another key is
// not used (the store is then initialised as before, only slower), so a stale file can cost time, never data.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { MemoryFS } from '@electric-sql/pglite';
import { UnpackSync } from 'tar';
import { sandboxDistDir } from '../core/dist-dir.js';

export const SNAPSHOT_FILE = 'pglite-snapshot.tar.gz';
export const SNAPSHOT_MANIFEST = 'pglite-snapshot.json';

export interface SnapshotManifest {
  key: string;
  pglite: string;
}

/** The installed PGlite's version (its package.json is not among its exports: found beside its entry point). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** How the snapshot is made: a small store shut down cleanly, then archived (see writeSnapshot). */
const SNAPSHOT_FORMAT = 'shut-down-folder, 1 MB WAL segments, no templates';

/**
 * What a snapshot must have been made with to be used: this PGlite, the migrations whose digest is `schemaDigest`
 * (the store's schema, see ./migrate.ts) and this way of making it.
 */
export function snapshotKey(schemaDigest: string): string {
  return createHash('sha256')
    .update(pgliteVersion())
    .update('\0')
    .update(schemaDigest)
    .update('\0')
    .update(SNAPSHOT_FORMAT)
    .digest('hex');
}

export function readManifest(dir: string): SnapshotManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, SNAPSHOT_MANIFEST), 'utf8')) as SnapshotManifest;
  } catch {
    return undefined;
  }
}

/**
 * The snapshot as an uncompressed tar, for `snapshotFilesystem`; undefined when there is none or it was made
 * with another PGlite or other migrations. Decompressed off the main thread (zlib's thread pool).
 */
export async function readSnapshot(schemaDigest: string, dir = sandboxDistDir()): Promise<Buffer | undefined> {
  const manifest = readManifest(dir);
  if (manifest?.key !== snapshotKey(schemaDigest)) return undefined;
  const file = join(dir, SNAPSHOT_FILE);
  try {
    // A process that starts several stores (a test suite, a team's tests using startSandbox) decompresses the
    // same file once while the last copy is still in memory; the garbage collector may take it meanwhile.
    const { mtimeMs, size } = statSync(file);
    const identity = `${file}\0${manifest.key}\0${mtimeMs}\0${size}`;
    const kept = lastRead?.identity === identity ? lastRead.tar.deref() : undefined;
    if (kept) return kept;
    // Large chunks: with zlib's default 16 KB ones, decompressing the snapshot off the main thread took several
    // times longer (one hop between threads per chunk).
    const tar = await promisify(gunzip)(await readFile(file), { chunkSize: 4 << 20 });
    lastRead = { identity, tar: new WeakRef(tar) };
    return tar;
  } catch {
    return undefined;
  }
}

/**
 * A cache of one: the last snapshot read (see readSnapshot), held weakly, so the garbage collector may empty it.
 * Callers only read it: its files are copied into PGlite's file system.
 */
let lastRead: { identity: string; tar: WeakRef<Buffer> } | undefined;

/**
 * The folders and files of a snapshot, read from its tar as writeSnapshot makes it (ustar, portable: folders and
 * plain files only, names within the header). The files are views into `tar` (plain Uint8Arrays, see below).
 * A snapshot of anything else is refused. Read here rather than by node-tar's parser, whose stream of entries was
 * several times slower for this one archive held in memory.
 */
export function readSnapshotFiles(tar: Uint8Array): { folders: string[]; files: { path: string; data: Uint8Array }[] } {
  const text = (bytes: Uint8Array) => {
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  const folders: string[] = [];
  const files: { path: string; data: Uint8Array }[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break; // the end of the archive
    if (text(header.subarray(257, 263)) !== 'ustar')
      throw new Error(`The PGlite snapshot is not a ustar archive (at byte ${at}).`);
    const prefix = text(header.subarray(345, 500));
    const path = `${prefix ? `${prefix}/` : ''}${text(header.subarray(0, 100))}`.replace(/^\/+|\/+$/g, '');
    const size = Number.parseInt(text(header.subarray(124, 136)).trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    at += 512;
    if (type === '5') folders.push(path);
    // A plain Uint8Array view, never a Node Buffer: PGlite's file system copies what it is given with `slice`,
    // which copies a Uint8Array but not a Buffer (a Buffer's `slice` is a view), and a store would then write
    // its pages into the snapshot every other store of the process starts from.
    else if (type === '0' || type === '\0')
      files.push({ path, data: new Uint8Array(tar.buffer, tar.byteOffset + at, size) });
    else
      throw new Error(
        `The PGlite snapshot holds ${path} of tar type ${JSON.stringify(type)}: only folders and files are expected.`,
      );
    at += Math.ceil(size / 512) * 512;
  }
  return { folders, files };
}

type EmscriptenOptions = Parameters<MemoryFS['init']>[1];

/**
 * PGlite's in-memory file system with the snapshot written into PGDATA before PostgreSQL starts, which then finds
 * its data folder made. PGlite's own `loadDataDir` does the same through its tar reader and a lookup of every
 * folder of every path, which made a start in memory slower.
 */
export function snapshotFilesystem(Base: typeof MemoryFS, pgdata: string, tar: Uint8Array): MemoryFS {
  const { folders, files } = readSnapshotFiles(tar);
  class SnapshotFilesystem extends Base {
    override async init(pg: Parameters<MemoryFS['init']>[0], options: EmscriptenOptions) {
      const { emscriptenOpts } = await super.init(pg, options);
      const load: NonNullable<EmscriptenOptions['preRun']>[number] = ({ FS }) => {
        FS.mkdirTree(pgdata);
        for (const folder of folders) FS.mkdirTree(`${pgdata}/${folder}`);
        for (const { path, data } of files) FS.writeFile(`${pgdata}/${path}`, data);
      };
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), load] } };
    }
  }
  return new SnapshotFilesystem();
}

/** PostgreSQL's mark of an initialised data folder. */
const PG_VERSION = 'PG_VERSION';

/**
 * Unpacks the snapshot into `dataDir`, a folder PostgreSQL has not been initialised in; false when there is no
 * current snapshot. PG_VERSION, which marks an initialised folder, is written last: a start stopped half-way
 * leaves a folder the next start unpacks into again (the files written meanwhile are written over). Written with
 * Node's own file calls, this takes less than half the time of PGlite's unpacking through its file system layer.
 */
export async function unpackSnapshot(dataDir: string, schemaDigest: string, dir = sandboxDistDir()): Promise<boolean> {
  const tar = await readSnapshot(schemaDigest, dir);
  if (!tar) return false;
  const isVersion = (path: string) => path.replace(/^\/+/, '') === PG_VERSION;
  // The archive's names are relative to the data folder (a leading `/` would be taken as relative too).
  // Times and modes as tar would set them do not matter to PostgreSQL here: not set, one call fewer per file.
  const options = { cwd: dataDir, noMtime: true, noChmod: true };
  new UnpackSync({ ...options, filter: (path) => !isVersion(path) }).end(tar);
  new UnpackSync({ ...options, filter: isVersion }).end(tar);
  return true;
}
