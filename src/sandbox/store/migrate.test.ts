// The migrations: numbered files applied once each, in order, and recorded; a file runs whole, never split on
// `;`; a store made before the migrations were files (a --data folder of an earlier sandbox) opens with its data
// and ends with the schema a new store gets. On each store under test.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orThrow } from '../../client/index.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { forEachStore, sandboxInTest } from '../../testing/sandbox-fixture.js';
import { type Db, openPglite, openPostgres } from './db.js';
import { MIGRATIONS_DIR, migrate, readSchema, schema } from './migrate.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-migrate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the migrations folder, with `extra` files added. */
function migrationsWith(name: string, extra: Record<string, string>): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const file of readdirSync(MIGRATIONS_DIR)) copyFileSync(join(MIGRATIONS_DIR, file), join(dir, file));
  for (const [file, sql] of Object.entries(extra)) writeFileSync(join(dir, file), sql);
  return dir;
}

/** The number the next migration file takes: one after the folder's last. */
const number = (n: number) => String(n).padStart(4, '0');
const NEXT = number(schema.migrations.length + 1);

const recorded = async (db: Db) =>
  (await db.query<{ name: string }>('select name from sandbox_migrations order by version')).map((r) => r.name);

/** The schema as the catalog shows it: columns, constraints and indexes of every table but the record's. */
async function catalog(db: Db) {
  const columns = await db.query(
    `select table_name, column_name, data_type, is_nullable, column_default, ordinal_position
       from information_schema.columns
      where table_schema = 'public' and table_name <> 'sandbox_migrations'
      order by table_name, ordinal_position`,
  );
  const constraints = await db.query(
    `select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as definition
       from pg_constraint
      where connamespace = 'public'::regnamespace and conrelid::regclass::text <> 'sandbox_migrations'
      order by 1, 2`,
  );
  const indexes = await db.query(
    `select tablename, indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename <> 'sandbox_migrations' order by 1, 2`,
  );
  return { columns, constraints, indexes };
}

/**
 * `db` emptied: an empty PGlite store is the build's snapshot emptied (a store of its own runs initdb, seconds on
 * a busy machine).
 */
async function emptied(db: Db): Promise<Db> {
  await db.transaction((tx) => tx.script('drop schema public cascade; create schema public'));
  return db;
}

/** A store as the sandbox made it before its migrations were files: the script it ran, and its digest's record. */
async function madeBeforeFiles(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.script(readFileSync(join(MIGRATIONS_DIR, 'baseline.sql'), 'utf8'));
    await tx.script("create table sandbox_schema (digest text not null); insert into sandbox_schema values ('before')");
  });
}

describe('the migrations folder', () => {
  it('numbers its files from 0001 without a gap, and refuses a gap', () => {
    expect(schema.migrations.map((m) => m.version)).toEqual(schema.migrations.map((_, i) => i + 1));
    expect(schema.migrations[0]?.name).toBe('0001_tenants.sql');
    const later = `${number(schema.migrations.length + 3)}_later.sql`;
    const gap = migrationsWith('gap', { [later]: 'select 1;' });
    expect(() => readSchema(gap)).toThrow(`Migration ${later} in ${gap}: expected number ${NEXT}.`);
  });
});

forEachStore('migrations', (store) => {
  // Two stores for the block, each emptied before every use: emptying a store is far cheaper than opening one.
  const opened: Db[] = [];
  afterAll(() => Promise.all(opened.map((db) => db.close())));
  /** Store `which` (0 or 1), empty. */
  const open = async (which = 0): Promise<Db> => {
    if (!opened[which]) {
      const options = await store.options();
      opened[which] =
        'databaseUrl' in options
          ? await openPostgres(options.databaseUrl)
          : await openPglite({ memory: true, schemaDigest: schema.digest });
    }
    return emptied(opened[which]!);
  };
  const using = async (work: (db: Db) => Promise<void>) => work(await open());

  it('applies every file once, in order, and records each; a second run applies nothing', () =>
    using(async (db) => {
      await migrate(db);
      // The files create their tables without `if not exists`: a second application would fail.
      await migrate(db);
      expect(await recorded(db)).toEqual(schema.migrations.map((m) => m.name));
      expect(await db.query('select offset_ms::int as offset_ms from sandbox_clock')).toEqual([{ offset_ms: 0 }]);
    }));

  it('applies a new file alone, whole: a `;` in a string or a comment splits nothing', () =>
    using(async (db) => {
      await migrate(db);
      const dir = migrationsWith('new-file', {
        [`${NEXT}_notes.sql`]: `-- A note; with a semicolon in a comment.
create table notes (id integer primary key, text text not null);
insert into notes values (1, 'one; two'), (2, $$three;
four$$);
`,
      });
      await migrate(db, readSchema(dir), dir);
      expect(await db.query('select text from notes order by id')).toEqual([
        { text: 'one; two' },
        { text: 'three;\nfour' },
      ]);
      expect((await recorded(db)).at(-1)).toBe(`${NEXT}_notes.sql`);
    }));

  it('leaves nothing of a file that fails, and records nothing of it', () =>
    using(async (db) => {
      await migrate(db);
      const dir = migrationsWith('failing', {
        [`${NEXT}_broken.sql`]: 'create table half (id integer);\nselect 1/0;\n',
      });
      await expect(migrate(db, readSchema(dir), dir)).rejects.toThrow(/division by zero/);
      expect(await db.query("select to_regclass('half') as t")).toEqual([{ t: null }]);
      expect(await recorded(db)).toEqual(schema.migrations.map((m) => m.name));
    }));

  it('opens a store made before the migrations were files with its data, and gives it the schema a new store has', () =>
    using(async (db) => {
      await madeBeforeFiles(db);
      await db.query(
        "insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at) values (gen_random_uuid(), 'Kept', 'b', 'v', 'i', now())",
      );
      await migrate(db);
      expect(await db.query('select name from tenants')).toEqual([{ name: 'Kept' }]);
      expect(await recorded(db)).toEqual(schema.migrations.map((m) => m.name));
      expect(await db.query("select to_regclass('sandbox_schema') as t")).toEqual([{ t: null }]);
      const fresh = await open(1);
      await migrate(fresh);
      expect(await catalog(db)).toEqual(await catalog(fresh));
    }));
});

describe('a --data folder of a sandbox from before the migrations were files', () => {
  it('opens, with its tenants, in a sandbox of today', async () => {
    const dataDir = join(work, 'before-files');
    const before = await emptied(await openPglite({ dataDir, schemaDigest: schema.digest }));
    try {
      await madeBeforeFiles(before);
      await before.query(
        "insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at) values (gen_random_uuid(), 'From before', 'b', 'v', 'i', now())",
      );
    } finally {
      await before.close();
    }
    const sandbox = await sandboxInTest({ dataDir });
    const { tenants } = await orThrow(createSandboxClient({ baseUrl: sandbox.url }).listTenants());
    expect(tenants.map((t) => t.name)).toEqual(['From before']);
    expect(await recorded(sandbox.db)).toEqual(schema.migrations.map((m) => m.name));
  }, 60_000);
});
