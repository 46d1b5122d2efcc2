// The sandbox clock's offset as the store keeps it (the `sandbox_clock` row, made by ../resources/tenants.ts).
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
