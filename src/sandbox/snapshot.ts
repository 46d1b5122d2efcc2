// A PGlite data folder with the sandbox's tables already made, written at build time (`npm run build`, and the
// test setup) beside the compiled sandbox and shipped in the package. A new store, in memory or in a fresh
// --data folder, starts from it instead of running initdb and the migrations: about 0.5 s instead of 2.5 s.
//
// It holds nothing of any tenant or sandbox: no signing key (each store makes its own at its first start), no
// records. Its key names the PGlite version and the migrations it was made with; a snapshot with another key is
// not used (the store is then initialised as before, only slower), so a stale file can cost time, never data.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
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

/** How the snapshot is made: a store shut down cleanly, then archived (see writeSnapshot). */
const SNAPSHOT_FORMAT = 'shut-down-folder';

/** What a snapshot must have been made with to be used: this PGlite, these migrations and this way of making it. */
export function snapshotKey(): string {
  return createHash('sha256').update(pgliteVersion()).update('\0').update(migrationsDigest).update('\0').update(SNAPSHOT_FORMAT).digest('hex');
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, SNAPSHOT_MANIFEST), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

let prefetched: Promise<Buffer | undefined> | undefined;

/**
 * Starts reading the snapshot now, for the next `readSnapshot()` to take: the command line calls it as soon as
 * its options are good, so the snapshot is decompressed while the server's modules load.
 */
export function prefetchSnapshot(): void {
  prefetched ??= readSnapshot();
}

/**
 * The snapshot as an uncompressed tar, for PGlite's `loadDataDir`; undefined when there is none or it was made
 * with another PGlite or other migrations. Decompressed off the main thread (zlib's thread pool).
 */
export async function readSnapshot(dir = sandboxDistDir()): Promise<Buffer | undefined> {
  if (prefetched && dir === sandboxDistDir()) {
    const early = prefetched;
    prefetched = undefined;
    return early;
  }
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
    // Large chunks: with zlib's default 16 KB ones, decompressing 41 MB off the main thread took 0.26 s, not 0.09.
    const tar = await promisify(gunzip)(await readFile(file), { chunkSize: 4 << 20 });
    lastRead = { identity, tar: new WeakRef(tar) };
    return tar;
  } catch {
    return undefined;
  }
}

/** The last snapshot read (see readSnapshot). Callers only read it: PGlite copies it into a Blob. */
let lastRead: { identity: string; tar: WeakRef<Buffer> } | undefined;

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
    const pg = await PGlite.create({ dataDir: work });
    try {
      await migrate({ transaction: (work) => pg.transaction((tx) => work({ query: async <Row,>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows })) });
    } finally {
      await pg.close();
    }
    mkdirSync(dir, { recursive: true });
    // The manifest goes first and comes back last: a run stopped half-way leaves no key naming other data.
    rmSync(join(dir, SNAPSHOT_MANIFEST), { force: true });
    const temporary = join(dir, `${SNAPSHOT_FILE}.${process.pid}.tmp`);
    // Level 6: 41 MB of data files to about 4.7 MB; decompressing takes about 0.1 s whatever the level.
    createTar({ cwd: work, file: temporary, sync: true, portable: true, gzip: { level: 6 } }, readdirSync(work).sort());
    renameSync(temporary, join(dir, SNAPSHOT_FILE));
    writeFileSync(join(dir, SNAPSHOT_MANIFEST), `${JSON.stringify({ key, pglite: pgliteVersion() } satisfies Manifest, null, 2)}\n`);
  } finally {
    removeWork();
  }
  return true;
}
