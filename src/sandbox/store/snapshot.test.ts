// A new store starts from the build's PGlite snapshot (the tests' global setup builds it, as `npm run build`
// does): its tables made, nothing of any sandbox in it; a snapshot made with other migrations or another PGlite
// is not used; and the migrations run again on a store that records other ones.

import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar, Parser } from 'tar';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sandboxDistDir } from '../core/dist-dir.js';
import { type Db, openPglite } from './db.js';
import { migrationsDigest, schema } from './migrate.js';

/** The migrations a store records, in order. */
const recordedMigrations = async (db: Db) =>
  (await db.query<{ name: string }>('select name from sandbox_migrations order by version')).map((r) => r.name);
const everyMigration = schema.migrations.map((m) => m.name);

import { sandboxInTest } from '../../testing/sandbox-fixture.js';
import { readSnapshot, readSnapshotFiles, SNAPSHOT_FILE, SNAPSHOT_MANIFEST, snapshotKey } from './snapshot.js';

const work = mkdtempSync(join(tmpdir(), 'ramp-snapshot-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the PGlite snapshot', () => {
  // Two stores in memory started from the snapshot, shared by the tests that need one rather than a start each:
  // the tests that read a store as it started come first, those that write into them after.
  const inMemory: Promise<Db>[] = [];
  const store = (which: 0 | 1) => (inMemory[which] ??= openPglite({ memory: true, schemaDigest: schema.digest }));
  afterAll(async () => {
    for (const db of await Promise.all(inMemory)) await db.close();
  });

  it('is built, with the current key', () => {
    const manifest = JSON.parse(readFileSync(join(sandboxDistDir(), SNAPSHOT_MANIFEST), 'utf8')) as { key: string };
    expect(manifest.key).toBe(snapshotKey(schema.digest));
  });

  it('holds a store that was shut down cleanly: a start from it recovers nothing', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const said: string[] = [];
    // With `debug`, PGlite also writes its server's lines and its own steps to the console: kept out of the run's
    // output, since onStderr captures what the assertions need.
    const quiet = (['error', 'debug', 'log'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => undefined),
    );
    try {
      const pg = await PGlite.create({
        loadDataDir: new Blob([(await readSnapshot(schema.digest))! as Uint8Array<ArrayBuffer>]),
        debug: 1,
        onStderr: (line) => {
          said.push(line);
          return true;
        },
      });
      await pg.close();
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    const log = said.join('\n');
    expect(log).toMatch(/database system was shut down at/);
    expect(log).not.toMatch(/not properly shut down|automatic recovery|redo starts/);
  });

  it('is small, since every new store copies all of it: 1 MB WAL segments, no future segment, no template database', async () => {
    const tar = (await readSnapshot(schema.digest))!;
    const files = new Map<string, number>();
    new Parser({
      onReadEntry: (entry) => {
        files.set(entry.path.replace(/^\/+/, ''), entry.size);
        entry.resume();
      },
    }).end(tar);
    const wal = [...files.keys()].filter((path) => /^pg_wal\/[0-9A-F]{24}$/.test(path));
    expect(wal.map((path) => files.get(path))).toEqual(wal.map(() => 1 << 20));
    // The segment of the shutdown checkpoint, and at most the one PostgreSQL makes ready after it.
    expect(wal.length).toBeLessThanOrEqual(2);
    const db = await store(0);
    expect(await db.query('select datname from pg_database order by 1')).toEqual([{ datname: 'postgres' }]);
    expect(await db.query("select current_setting('wal_segment_size') as size")).toEqual([{ size: '1MB' }]);
    expect([...files.values()].reduce((a, b) => a + b, 0)).toBeLessThan(16 << 20);
  });

  it('is read, for a store in memory, as the folders and files node-tar finds in it; anything else in an archive is refused', async () => {
    const tar = (await readSnapshot(schema.digest))!;
    const seen: { folders: string[]; files: { path: string; data: string }[] } = { folders: [], files: [] };
    new Parser({
      onReadEntry: (entry) => {
        const path = entry.path.replace(/^\/+|\/+$/g, '');
        if (entry.type === 'Directory') {
          seen.folders.push(path);
          return entry.resume();
        }
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () =>
          seen.files.push({ path, data: createHash('sha256').update(Buffer.concat(chunks)).digest('hex') }),
        );
      },
    }).end(tar);
    const read = readSnapshotFiles(tar);
    expect({
      folders: read.folders,
      files: read.files.map(({ path, data }) => ({ path, data: createHash('sha256').update(data).digest('hex') })),
    }).toEqual(seen);
    expect(seen.files.map((file) => file.path)).toContain('PG_VERSION');

    expect(() => readSnapshotFiles(new Uint8Array(1024).fill(1))).toThrow(/not a ustar archive \(at byte 0\)/);
    const odd = join(work, 'odd');
    mkdirSync(odd);
    symlinkSync('PG_VERSION', join(odd, 'link'));
    createTar({ cwd: odd, file: join(work, 'odd.tar'), sync: true, portable: true }, ['link']);
    expect(() => readSnapshotFiles(readFileSync(join(work, 'odd.tar')))).toThrow(
      'The PGlite snapshot holds link of tar type "2": only folders and files are expected.',
    );
  });

  it.each<[string, { memory?: boolean; dataDir?: string }]>([
    ['in memory', { memory: true }],
    ['in a new --data folder', { dataDir: join(work, 'fresh') }],
  ])(
    'gives a new store %s its tables, recorded as made by the current migrations, and no signing key; its commits wait for the disk only where it has one',
    async (_label, options) => {
      const db = options.memory ? await store(0) : await openPglite({ ...options, schemaDigest: schema.digest });
      try {
        // Read before any migration ran in this process: what the store started with.
        expect(await recordedMigrations(db)).toEqual(everyMigration);
        expect(await db.query<{ n: number }>('select count(*)::int as n from sandbox_signing_key')).toEqual([{ n: 0 }]);
        expect(await db.query<{ n: number }>('select count(*)::int as n from tenants')).toEqual([{ n: 0 }]);
        expect(await db.query('show synchronous_commit')).toEqual([
          { synchronous_commit: options.memory ? 'off' : 'on' },
        ]);
        // Shared memory is zeroed at every start, each page of it new to the process: PostgreSQL's default of 128
        // MB of buffers slowed each start. In memory a page beyond them is read back from memory, so they are few.
        expect(await db.query('show shared_buffers')).toEqual([{ shared_buffers: options.memory ? '4MB' : '32MB' }]);
      } finally {
        if (!options.memory) await db.close();
      }
      if (options.dataDir) expect(existsSync(join(options.dataDir, 'PG_VERSION'))).toBe(true);
    },
  );

  it('starts a --data folder that an interrupted first start left without PG_VERSION afresh, over what it had written', async () => {
    const dir = join(work, 'interrupted');
    mkdirSync(join(dir, 'base', '5'), { recursive: true });
    writeFileSync(join(dir, 'base', '5', '1255'), 'half of a file');
    const db = await openPglite({ dataDir: dir, schemaDigest: schema.digest });
    try {
      expect(await recordedMigrations(db)).toEqual(everyMigration);
    } finally {
      await db.close();
    }
  });

  it('is copied into each store in memory: what one store writes reaches neither the snapshot nor another store', async () => {
    const digest = async () =>
      createHash('sha256')
        .update((await readSnapshot(schema.digest))!)
        .digest('hex');
    const before = await digest();
    const [a, b] = [await store(0), await store(1)];
    await a.query(
      "insert into tenants (id, name, business_secret, v1_secret, integration_register, created_at) select gen_random_uuid(), 'A', 'b', 'v', 'i', now() from generate_series(1, 200)",
    );
    await a.query('checkpoint'); // every changed page written to the store's files
    expect(await digest()).toBe(before);
    expect(await b.query<{ n: number }>('select count(*)::int as n from tenants')).toEqual([{ n: 0 }]);
  });

  it('gives each sandbox a signing key of its own', async () => {
    const keys: unknown[] = [];
    for (const which of [0, 1] as const) {
      const db = await store(which);
      const sandbox = await sandboxInTest({ db });
      keys.push((await db.query<{ secret: string }>('select secret from sandbox_signing_key'))[0]?.secret);
      await sandbox.close();
    }
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('is not used when it was made with other migrations or another PGlite, or is missing', async () => {
    const stale = join(work, 'stale');
    const missing = join(work, 'missing');
    for (const dir of [stale, missing]) rmSync(dir, { recursive: true, force: true });
    mkdirSync(stale);
    mkdirSync(missing);
    copyFileSync(join(sandboxDistDir(), SNAPSHOT_FILE), join(stale, SNAPSHOT_FILE));
    writeFileSync(
      join(stale, SNAPSHOT_MANIFEST),
      JSON.stringify({ key: 'made-with-other-migrations', pglite: '0.0.0' }),
    );
    expect(await readSnapshot(schema.digest, stale)).toBeUndefined();
    expect(await readSnapshot(schema.digest, missing)).toBeUndefined();
    expect((await readSnapshot(schema.digest))?.length).toBeGreaterThan(1_000_000);
  });

  it('is made again when a migration changes: its key names every migration', () => {
    const [first, ...rest] = schema.migrations;
    const changed = migrationsDigest([{ ...first!, sql: `${first!.sql}-- changed\n` }, ...rest]);
    expect(migrationsDigest(schema.migrations)).toBe(schema.digest);
    expect(snapshotKey(changed)).not.toBe(snapshotKey(schema.digest));
  });
});
