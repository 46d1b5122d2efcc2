// Sandbox time has one value, the store's: an advanceClock refused at its commit moves neither the process's
// clock nor the store's; the total offset is bounded (MAX_CLOCK_OFFSET_SECONDS, documented with advanceClock's
// 409), past which an advance is refused and moves nothing; and a store whose clock went past the bound before
// there was one starts with a clock every operation can answer with.
import { describe, expect, it, onTestFinished } from 'vitest';
import { orThrow } from '../../client/core/client.js';
import { createSandboxClient } from '../../client/sandbox/client.js';
import { sandboxInTest } from '../../testing/sandbox-fixture.js';
import { readBundleFile } from '../contract/document.js';
import { MAX_CLOCK_OFFSET_SECONDS } from '../store/clock-offset.js';
import { type Db, openPglite } from '../store/db.js';
import { migrate, schema } from '../store/migrate.js';

const YEAR = 365 * 24 * 3600;

/** A migrated store in memory whose clock runs `offsetSeconds` ahead, closed when the test ends. */
async function storeAhead(offsetSeconds: number): Promise<Db> {
  const db = await openPglite({ memory: true, schemaDigest: schema.digest });
  onTestFinished(() => db.close());
  await migrate(db, schema);
  await db.query('update sandbox_clock set offset_ms = $1 where id = 1', [offsetSeconds * 1000]);
  return db;
}

const storedOffset = async (db: Db) =>
  Number((await db.query<{ offset_ms: string }>('select offset_ms from sandbox_clock'))[0]!.offset_ms) / 1000;

describe('the sandbox clock', () => {
  it('moves neither the process’s clock nor the store’s when an advance fails at its commit', async () => {
    const db = await storeAhead(0);
    let failCommit = false;
    // The database goes away as the advance commits: the transaction is rolled back.
    const failing: Db = {
      ...db,
      transaction: (work) =>
        db.transaction(async (tx) => {
          const result = await work(tx);
          if (failCommit) throw Object.assign(new Error('terminating connection'), { code: '57P01' });
          return result;
        }),
    };
    const sandbox = await sandboxInTest({ db: failing });
    const control = createSandboxClient({ baseUrl: sandbox.url, retry: false });
    failCommit = true;
    const refused = await control.advanceClock({ body: { seconds: 3600 } });
    failCommit = false;
    expect(refused.response.status).toBe(503);
    expect((await orThrow(control.getClock())).offsetSeconds).toBe(0);
    expect(await storedOffset(db)).toBe(0);
    expect((await orThrow(control.advanceClock({ body: { seconds: 60 } }))).offsetSeconds).toBe(60);
    expect([(await orThrow(control.getClock())).offsetSeconds, await storedOffset(db)]).toEqual([60, 60]);
  });

  it(`refuses an advance past ${MAX_CLOCK_OFFSET_SECONDS} s ahead with 409, saying so, and moves nothing`, async () => {
    const db = await storeAhead(MAX_CLOCK_OFFSET_SECONDS - 10);
    const sandbox = await sandboxInTest({ db });
    const control = createSandboxClient({ baseUrl: sandbox.url, retry: false });
    expect((await orThrow(control.advanceClock({ body: { seconds: 5 } }))).offsetSeconds).toBe(
      MAX_CLOCK_OFFSET_SECONDS - 5,
    );
    const refused = await control.advanceClock({ body: { seconds: YEAR } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ error: 'conflict' });
    expect((refused.error as { message: string }).message).toContain(`at most ${MAX_CLOCK_OFFSET_SECONDS} seconds`);
    expect((refused.error as { message: string }).message).toContain('at most 5 more');
    expect((await orThrow(control.getClock())).offsetSeconds).toBe(MAX_CLOCK_OFFSET_SECONDS - 5);
    expect(await storedOffset(db)).toBe(MAX_CLOCK_OFFSET_SECONDS - 5);
    // Everything else still answers.
    expect((await control.createTenant({ body: { name: 'At the end of time' } })).response.status).toBe(201);
    expect((await control.getSandbox()).response.status).toBe(200);
  });

  it('starts a store whose clock went thousands of years ahead at the bound, and answers with it', async () => {
    const db = await storeAhead(7_978 * YEAR);
    const sandbox = await sandboxInTest({ db });
    const control = createSandboxClient({ baseUrl: sandbox.url, retry: false });
    const clock = await orThrow(control.getClock());
    expect(clock.offsetSeconds).toBe(MAX_CLOCK_OFFSET_SECONDS);
    expect(new Date(clock.now).getUTCFullYear()).toBeLessThan(new Date().getUTCFullYear() + 101);
    expect(await storedOffset(db)).toBe(MAX_CLOCK_OFFSET_SECONDS);
    expect((await control.createTenant({ body: { name: 'After the restart' } })).response.status).toBe(201);
  });

  it('documents the bound with advanceClock’s 409', () => {
    const operation = (readBundleFile('sandbox') as any).paths['/sandbox/clock/advance'].post;
    expect(operation.responses['409'].description).toContain(String(MAX_CLOCK_OFFSET_SECONDS));
  });
});
