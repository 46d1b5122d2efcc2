// The read memory of the PGlite store: a GET never sees rows older than the last committed write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPglite } from './db.js';
import { schema } from './migrate.js';

describe('PGlite reads remembered until the next write', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite({ memory: true, schemaDigest: schema.digest });
    await db.query('create table t (id int primary key, v text)');
    await db.query("insert into t values (1, 'a')");
  });
  afterAll(() => db.close());

  const read = async () => (await db.reads.query<{ v: string }>('select v from t where id = $1', [1]))[0]?.v;

  it('answers a committed transaction, a direct write and a rollback with current rows', async () => {
    expect(await read()).toBe('a');
    expect(await read()).toBe('a');
    await db.transaction((tx) => tx.query("update t set v = 'b' where id = 1"));
    expect(await read()).toBe('b');
    await db.query("update t set v = 'c' where id = 1");
    expect(await read()).toBe('c');
    await expect(
      db.transaction(async (tx) => {
        await tx.query("update t set v = 'd' where id = 1");
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await read()).toBe('c');
  });

  it('answers a read beside a write with the rows before or after it, and after it only the new rows', async () => {
    const during = db.transaction((tx) => tx.query("update t set v = 'e' where id = 1"));
    const [beside] = await Promise.all([read(), during]);
    expect(['c', 'e']).toContain(beside);
    expect(await read()).toBe('e');
  });

  it("hands out frozen rows in an array of the caller's own: changing a row throws, reordering changes nothing the next caller sees", async () => {
    const rows = await db.reads.query<{ v: string }>('select v from t where id = $1', [1]);
    expect(() => (rows[0]!.v = 'changed')).toThrow(TypeError);
    rows.length = 0;
    expect(await read()).toBe('e');
  });
});
