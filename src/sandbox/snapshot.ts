// A PGlite data folder with the sandbox's tables already made, written at build time (`npm run build`, and the
// test setup) beside the compiled sandbox and shipped in the package. A new store, in memory or in a fresh
// --data folder, starts from it instead of running initdb and the migrations: about 0.5 s instead of 2.5 s.
//
// It holds nothing of any tenant or sandbox: no signing key (each store makes its own at its first start), no
// records. Its key names the PGlite version and the migrations it was made with; a snapshot with another key is
// not used (the store is then initialised as before, only slower), so a stale file can cost time, never data.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { MemoryFS } from '@electric-sql/pglite';
import { create as createTar, UnpackSync } from 'tar';
import { sandboxDistDir } from './reference.js';
import { migrate, migrationsDigest } from './resources/index.js';

export const SNAPSHOT_FILE = 'pglite-snapshot.tar.gz';
export const SNAPSHOT_MANIFEST = 'pglite-snapshot.json';

interface Manifest {
  key: string;
  pglite: string;
}

/** The installed PGlite's version (its package.json is not among its exports: found beside its entry point). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** How the snapshot is made: a small store shut down cleanly, then archived (see writeSnapshot). */
const SNAPSHOT_FORMAT = 'shut-down-folder, 1 MB WAL segments, no templates';

/** What a snapshot must have been made with to be used: this PGlite, these migrations and this way of making it. */
export function snapshotKey(): string {
  return createHash('sha256')
    .update(pgliteVersion())
    .update('\0')
    .update(migrationsDigest)
    .update('\0')
    .update(SNAPSHOT_FORMAT)
    .digest('hex');
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, SNAPSHOT_MANIFEST), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * The snapshot as an uncompressed tar, for `snapshotFilesystem`; undefined when there is none or it was made
 * with another PGlite or other migrations. Decompressed off the main thread (zlib's thread pool).
 */
export async function readSnapshot(dir = sandboxDistDir()): Promise<Buffer | undefined> {
  const manifest = readManifest(dir);
  if (manifest?.key !== snapshotKey()) return undefined;
  const file = join(dir, SNAPSHOT_FILE);
  try {
    // A process that starts several stores (a test suite, a team's tests using startSandbox) decompresses the
    // same file once while the last copy is still in memory; the garbage collector may take it meanwhile.
    const { mtimeMs, size } = statSync(file);
    const identity = `${file}\0${manifest.key}\0${mtimeMs}\0${size}`;
    const kept = lastRead?.identity === identity ? lastRead.tar.deref() : undefined;
    if (kept) return kept;
    // Large chunks: with zlib's default 16 KB ones, decompressing the 41 MB snapshot of then off the main thread took 0.26 s, not 0.09.
    const tar = await promisify(gunzip)(await readFile(file), { chunkSize: 4 << 20 });
    lastRead = { identity, tar: new WeakRef(tar) };
    return tar;
  } catch {
    return undefined;
  }
}

/** The last snapshot read (see readSnapshot). Callers only read it: its files are copied into PGlite's file system. */
let lastRead: { identity: string; tar: WeakRef<Buffer> } | undefined;

/**
 * The folders and files of a snapshot, read from its tar as writeSnapshot makes it (ustar, portable: folders and
 * plain files only, names within the header). The files are views into `tar` (plain Uint8Arrays, see below).
 * A snapshot of anything else is refused. Read here rather than by node-tar's parser, whose stream of entries took 27 ms for this, not 4.
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
 * folder of every path: a start in memory took about 0.08 s less this way (median of 8 starts each).
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
export async function unpackSnapshot(dataDir: string, dir = sandboxDistDir()): Promise<boolean> {
  const tar = await readSnapshot(dir);
  if (!tar) return false;
  const isVersion = (path: string) => path.replace(/^\/+/, '') === PG_VERSION;
  // The archive's names are relative to the data folder (a leading `/` would be taken as relative too).
  // Times and modes as tar would set them do not matter to PostgreSQL here: not set, one call fewer per file.
  const options = { cwd: dataDir, noMtime: true, noChmod: true };
  new UnpackSync({ ...options, filter: (path) => !isVersion(path) }).end(tar);
  new UnpackSync({ ...options, filter: isVersion }).end(tar);
  return true;
}

/**
 * Makes the snapshot in `dir` unless one with the current key is there; whether it wrote one. The store is made
 * in a folder and shut down cleanly before it is archived: a store started from it then recovers nothing (from
 * a copy of a running store, as PGlite's dumpDataDir makes, every start ran crash recovery and its end-of-recovery
 * checkpoint, about 0.1 s). The file is written under a temporary name and renamed, so a reader never sees half
 * of it.
 */
export async function writeSnapshot(dir = sandboxDistDir()): Promise<boolean> {
  const key = snapshotKey();
  if (readManifest(dir)?.key === key) return false;
  const { PGlite } = await import('@electric-sql/pglite');
  const work = mkdtempSync(join(tmpdir(), 'ramp-snapshot-'));
  const removeWork = () => {
    process.off('exit', removeWork);
    rmSync(work, { recursive: true, force: true });
  };
  process.once('exit', removeWork);
  try {
    // Every new store copies the whole snapshot, so it is kept small (39 MB of files before, 10.6 MB now; a start
    // in memory took about 0.15 s less). WAL segments of 1 MB instead of 16 MB, and old segments removed rather
    // than renamed to be written again (initdb alone left five such segments, full of its own WAL, ahead of the
    // current one); a store makes new segments as it needs them.
    const pg = await PGlite.create({ dataDir: work, initDbStartParams: ['--wal-segsize=1', '-c', 'wal_recycle=off'] });
    try {
      await migrate({
        transaction: (work) =>
          pg.transaction((tx) =>
            work({ query: async <Row>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows }),
          ),
      });
      // template0 and template1 are only what CREATE DATABASE copies: a sandbox's store is the one database
      // `postgres` and never makes another. Dropped (after PostgreSQL's own way of allowing it) with their files.
      await pg.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
      for (const name of ['template0', 'template1']) await pg.exec(`drop database ${name}`);
    } finally {
      await pg.close();
    }
    mkdirSync(dir, { recursive: true });
    // The manifest goes first and comes back last: a run stopped half-way leaves no key naming other data.
    rmSync(join(dir, SNAPSHOT_MANIFEST), { force: true });
    const temporary = join(dir, `${SNAPSHOT_FILE}.${process.pid}.tmp`);
    // Level 6: 10.6 MB of data files to about 1.3 MB.
    createTar({ cwd: work, file: temporary, sync: true, portable: true, gzip: { level: 6 } }, readdirSync(work).sort());
    renameSync(temporary, join(dir, SNAPSHOT_FILE));
    writeFileSync(
      join(dir, SNAPSHOT_MANIFEST),
      `${JSON.stringify({ key, pglite: pgliteVersion() } satisfies Manifest, null, 2)}\n`,
    );
  } finally {
    removeWork();
  }
  return true;
}
