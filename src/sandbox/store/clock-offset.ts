// The sandbox clock's offset as the store keeps it: the one row of `sandbox_clock` (./migrations/0002_sandbox_clock.sql),
// read and written here only.
import type { SandboxLogger } from '../core/logger.js';
import { refusals } from '../core/refusals.js';
import type { Sql } from './db.js';

/**
 * How far sandbox time may run ahead of the real clock, in seconds: 100 years of 365 days (the sandbox's own
 * bound, documented with advanceClock's 409). Dates stay four-digit years, which every client and PostgreSQL
 * read the same way; an advance past it is refused and moves nothing.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 365 * 24 * 3600;
const MAX_OFFSET_MS = MAX_CLOCK_OFFSET_SECONDS * 1000;

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
 * the offset it makes. An advance past MAX_CLOCK_OFFSET_SECONDS changes nothing and is refused (409).
 */
export async function addClockOffset(db: Sql, ms: number): Promise<number> {
  const rows = await db.query<{ offset_ms: string | number }>(
    'update sandbox_clock set offset_ms = offset_ms + $1 where id = 1 and offset_ms + $1 <= $2 returning offset_ms',
    [ms, MAX_OFFSET_MS],
  );
  if (rows[0]) return Number(rows[0].offset_ms);
  const now = (await loadClockOffset(db)) / 1000;
  throw refusals.conflict(
    `Sandbox time may run at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) ahead of the real clock, the sandbox's own bound; it is ${now} seconds ahead, so at most ${Math.max(0, MAX_CLOCK_OFFSET_SECONDS - now)} more can be added. Nothing was changed; resetSandbox sets the clock back to the real time.`,
  );
}

/**
 * The stored offset at start, brought within MAX_CLOCK_OFFSET_SECONDS if a store from before the bound went
 * past it (said to `logger`): the process starts with the clock the store keeps.
 */
export async function startingClockOffset(db: Sql, logger: SandboxLogger): Promise<number> {
  const capped = await db.query(
    'update sandbox_clock set offset_ms = $1 where id = 1 and offset_ms > $1 returning id',
    [MAX_OFFSET_MS],
  );
  if (capped.length)
    logger.error(
      `[sandbox] the stored clock ran more than ${MAX_CLOCK_OFFSET_SECONDS} seconds ahead of the real clock; it is set back to that bound.`,
    );
  return loadClockOffset(db);
}

/** Sets the stored offset back to 0 (resetSandbox). */
export async function resetClockOffset(db: Sql): Promise<void> {
  await db.query('update sandbox_clock set offset_ms = 0 where id = 1');
}
