// The sandbox clock's offset as the store keeps it: the one row of `sandbox_clock` (./migrations/0002_sandbox_clock.sql),
// read and written here only.
import type { Sql } from './db.js';

/**
 * The clock offset last committed. Every instance on one database reads it (the delivery worker, on each pass),
 * so sandbox time is one time for all of them. `lock` waits for an advanceClock being committed (the row
 * always exists, so there is a row to wait on) instead of reading the value it is replacing.
 */
export async function loadClockOffset(db: Sql, lock = false): Promise<number> {
  const rows = await db.query<{ offset_ms: string | number }>(
    `select offset_ms from sandbox_clock where id = 1${lock ? ' for share' : ''}`,
  );
  return rows[0] ? Number(rows[0].offset_ms) : 0;
}

/**
 * Adds `ms` to the stored offset in one statement, so concurrent advances (on several instances too) all count;
 * the offset it makes.
 */
export async function addClockOffset(db: Sql, ms: number): Promise<number> {
  const rows = await db.query<{ offset_ms: string | number }>(
    'update sandbox_clock set offset_ms = offset_ms + $1 where id = 1 returning offset_ms',
    [ms],
  );
  return Number(rows[0]!.offset_ms);
}

/** Sets the stored offset back to 0 (resetSandbox). */
export async function resetClockOffset(db: Sql): Promise<void> {
  await db.query('update sandbox_clock set offset_ms = 0 where id = 1');
}
