// The store's schema: the numbered SQL files of ./migrations/ (`0001_tenants.sql`, ...), read top to bottom as
// the schema's history, each applied once, in order, and recorded in `sandbox_migrations`. A file runs whole,
// as one multi-statement script (PGlite's exec, PostgreSQL's simple-query protocol): its SQL is never split.
// A new table or column is a new file; a file that has shipped is never edited.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sandboxDistDir } from '../core/dist-dir.js';
import type { Tx } from './db.js';

export interface Migration {
  /** The file's number: the order it is applied in. */
  version: number;
  /** The file's name, `0001_tenants.sql`. */
  name: string;
  sql: string;
}

export interface Schema {
  migrations: readonly Migration[];
  /** A digest of every migration's name and text: the build's PGlite snapshot is made for one digest. */
  digest: string;
}

/** `src/sandbox/store/migrations/` from the sources; `store/migrations/` beside `dist/` in the package. */
export const MIGRATIONS_DIR = join(dirname(sandboxDistDir()), 'store', 'migrations');

/**
 * The last migration a store made before the migrations were files holds already once the baseline script
 * (`migrations/baseline.sql`) has run on it.
 */
const BASELINE_VERSION = 11;

const NUMBERED = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** The migrations of `dir`, in order; a number used twice or a gap in the numbers is a mistake. */
export function readSchema(dir = MIGRATIONS_DIR): Schema {
  const migrations = readdirSync(dir)
    .filter((name) => NUMBERED.test(name))
    .sort()
    .map((name) => ({ version: Number(NUMBERED.exec(name)![1]), name, sql: readFileSync(join(dir, name), 'utf8') }));
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1)
      throw new Error(`Migration ${migration.name} in ${dir}: expected number ${String(i + 1).padStart(4, '0')}.`);
  });
  return { migrations, digest: migrationsDigest(migrations) };
}

/** A digest of every migration's name and text. */
export function migrationsDigest(migrations: readonly Migration[]): string {
  const hash = createHash('sha256');
  for (const { name, sql } of migrations) hash.update(name).update('\0').update(sql).update('\0');
  return hash.digest('hex');
}

/** The sandbox's schema, read once when this module loads (a few small files). */
export const schema: Schema = readSchema();

/** Where the store stands: the versions it recorded, and whether it was made before migrations were files. */
async function recorded(tx: Tx): Promise<{ versions: Set<number>; beforeFiles: boolean }> {
  const [found] = await tx.query<{ tracked: boolean; legacy: boolean }>(
    "select to_regclass('sandbox_migrations') is not null as tracked, to_regclass('sandbox_schema') is not null as legacy",
  );
  if (found?.tracked) {
    const rows = await tx.query<{ version: number }>('select version from sandbox_migrations');
    return { versions: new Set(rows.map((row) => row.version)), beforeFiles: false };
  }
  await tx.script(
    'create table sandbox_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
  );
  return { versions: new Set(), beforeFiles: found?.legacy === true };
}

const record = (tx: Tx, { version, name }: Migration) =>
  tx.query('insert into sandbox_migrations (version, name) values ($1, $2)', [version, name]);

/**
 * Applies the migrations the store has not recorded, in one transaction; a store that has them all costs two
 * selects. A store made before the migrations were files gets the baseline script, and the migrations it
 * covers are recorded without being run.
 */
export async function migrate(
  db: { transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> },
  current: Schema = schema,
  dir = MIGRATIONS_DIR,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Several instances on one PostgreSQL may start at once: one migrates at a time.
    await tx.query('select pg_advisory_xact_lock(7301)');
    const { versions, beforeFiles } = await recorded(tx);
    if (beforeFiles) {
      await tx.script(readFileSync(join(dir, 'baseline.sql'), 'utf8'));
      await tx.script('drop table sandbox_schema');
      for (const migration of current.migrations.filter((m) => m.version <= BASELINE_VERSION)) {
        await record(tx, migration);
        versions.add(migration.version);
      }
    }
    for (const migration of current.migrations) {
      if (versions.has(migration.version)) continue;
      await tx.script(migration.sql);
      await record(tx, migration);
    }
  });
}
