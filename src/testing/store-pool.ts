// A cache of the PGlite stores in memory of the fixture's sandboxes (./sandbox-fixture.ts), kept from one sandbox
// to the next within a test worker (at most KEPT), since emptying a store costs far less than opening one (BENCHMARKS.md). A store is
// given back when its sandbox has closed, and emptied back to what a new store holds: every table of the first
// store this worker opened, as it was right after it opened (the migrations' records and the clock's one row),
// sequences restarted. A store whose tables are no longer those, or that cannot be emptied, is closed instead.
// Tests that are about a store's own start (a snapshot, a --data folder) open theirs with openPglite.
import { type Db, openPglite } from '../sandbox/store/db.js';
import { schema } from '../sandbox/store/migrate.js';

/** What a new store holds: its tables, the rows of those that are not empty, and where its sequences start. */
interface Contents {
  tables: string[];
  rows: Map<string, unknown[]>;
  sequences: { name: string; start: string }[];
}

/** At most this many stores wait between sandboxes: a few for the files that hold several at once, and no more. */
const KEPT = 3;

const waiting: Db[] = [];
let newStore: Promise<Contents> | undefined;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function tablesOf(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  return rows.map((row) => row.name);
}

async function contentsOf(db: Db): Promise<Contents> {
  const tables = await tablesOf(db);
  const rows = new Map<string, unknown[]>();
  for (const table of tables) {
    const [{ all }] = (await db.query<{ all: unknown[] | null }>(
      `select json_agg(t) as "all" from ${quoted(table)} t`,
    )) as [{ all: unknown[] | null }];
    if (all?.length) rows.set(table, all);
  }
  const sequences = await db.query<{ name: string; start: string }>(
    "select sequencename as name, start_value::text as start from pg_sequences where schemaname = 'public'",
  );
  return { tables, rows, sequences };
}

/** A store in memory for a sandbox: one given back earlier, else a new one. */
export async function takeStore(): Promise<Db> {
  const kept = waiting.pop();
  if (kept) return kept;
  const db = await openPglite({ memory: true, schemaDigest: schema.digest });
  // The first store this worker opens, before any sandbox has used it, says what a new store holds.
  newStore ??= contentsOf(db);
  await newStore;
  return db;
}

/** Empties `db` back to what a new store holds; throws when its tables are no longer a new store's. */
export async function emptyStore(db: Db): Promise<void> {
  const { tables, rows, sequences } = await newStore!;
  if ((await tablesOf(db)).join() !== tables.join())
    throw new Error('The store no longer has the tables it started with.');
  await db.transaction(async (tx) => {
    // Row by row rather than TRUNCATE, which makes every table's files anew, and in any order: the foreign keys'
    // triggers are off for this transaction, as they are for a replica applying changes.
    await tx.script(
      [
        'set local session_replication_role = replica',
        ...tables.map((table) => `delete from ${quoted(table)}`),
        ...sequences.map(({ name, start }) => `select setval('${quoted(name)}', ${start}, false)`),
      ].join(';\n'),
    );
    for (const [table, all] of rows)
      await tx.query(`insert into ${quoted(table)} select * from json_populate_recordset(null::${quoted(table)}, $1)`, [
        JSON.stringify(all),
      ]);
  });
}

/** Takes back the store of a sandbox that has closed: emptied and kept for the next one, or closed. */
export async function giveBack(db: Db): Promise<void> {
  try {
    if (waiting.length >= KEPT) throw new Error('enough stores wait already');
    await emptyStore(db);
    waiting.push(db);
  } catch {
    await db.close().catch(() => undefined);
  }
}
