// Build step: the PGlite snapshot a new store starts from (see src/sandbox/store/snapshot.ts, which reads it).
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { sandboxDistDir } from '../../src/sandbox/core/dist-dir.js';
import { migrate, schema } from '../../src/sandbox/store/migrate.js';
import {
  pgliteVersion,
  readManifest,
  SNAPSHOT_FILE,
  SNAPSHOT_MANIFEST,
  type SnapshotManifest,
  snapshotKey,
} from '../../src/sandbox/store/snapshot.js';
import { favourStartOverPeakSpeed } from '../../src/sandbox/store/wasm-tiering.js';

/**
 * Makes the snapshot in `dir` unless one with the current key is there; whether it wrote one. The store is made
 * in a folder and shut down cleanly before it is archived: a store started from it then recovers nothing (from
 * a copy of a running store, as PGlite's dumpDataDir makes, every start ran crash recovery and its end-of-recovery
 * checkpoint). The file is written under a temporary name and renamed, so a reader never sees half
 * of it.
 */
export async function writeSnapshot(dir = sandboxDistDir()): Promise<boolean> {
  const key = snapshotKey(schema.digest);
  if (readManifest(dir)?.key === key) return false;
  // One initdb and the migrations: the baseline compiler's code is enough for them (BENCHMARKS.md).
  favourStartOverPeakSpeed();
  const { PGlite } = await import('@electric-sql/pglite');
  const work = mkdtempSync(join(tmpdir(), 'ramp-snapshot-'));
  const removeWork = () => {
    process.off('exit', removeWork);
    rmSync(work, { recursive: true, force: true });
  };
  process.once('exit', removeWork);
  try {
    // Every new store copies the whole snapshot, so it is kept small: WAL segments of 1 MB instead of 16 MB, and
    // old segments removed rather than renamed to be written again (initdb alone left five such segments, full of
    // its own WAL, ahead of the current one); a store makes new segments as it needs them.
    const pg = await PGlite.create({ dataDir: work, initDbStartParams: ['--wal-segsize=1', '-c', 'wal_recycle=off'] });
    try {
      await migrate(
        {
          transaction: (work) =>
            pg.transaction((tx) =>
              work({
                query: async <Row>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows,
                script: async (text: string) => void (await tx.exec(text)),
              }),
            ),
        },
        schema,
      );
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
    // Level 6: the data files are mostly empty pages, and compress well.
    createTar({ cwd: work, file: temporary, sync: true, portable: true, gzip: { level: 6 } }, readdirSync(work).sort());
    renameSync(temporary, join(dir, SNAPSHOT_FILE));
    writeFileSync(
      join(dir, SNAPSHOT_MANIFEST),
      `${JSON.stringify({ key, pglite: pgliteVersion() } satisfies SnapshotManifest, null, 2)}\n`,
    );
  } finally {
    removeWork();
  }
  return true;
}
