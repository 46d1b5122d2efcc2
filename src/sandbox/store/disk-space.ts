// Room for writes in a --data folder: PostgreSQL (PGlite) needs space to extend a table and to begin a new
// WAL segment (16 MiB); writing into a file system with less is refused before the database is asked, so the
// database never meets a full disk in the middle of a write, and reads go on. Once space returns, writes are
// taken again: nothing is remembered but the last look, for a moment.
import { statfs } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { refusals } from '../core/refusals.js';

/** Free bytes a --data folder's file system must keep for a write to be taken: two WAL segments. */
export const RESERVED_DISK_BYTES = 32 * 1024 * 1024;
/** Seconds a client is told to wait (`Retry-After`) while the data folder's file system is full. */
export const DISK_FULL_RETRY_AFTER_SECONDS = 30;
/** How long one look at the free space is trusted (ms): a write-heavy client costs a statfs this often at most. */
const LOOK_MS = 100;

/** The refusal of a write while the data folder's file system is full (`dir`, never a file's contents). */
export function storageFull(dir: string) {
  return refusals.storageFull(
    `The file system of the sandbox's data folder (--data ${dir}) is full, so nothing was stored; reads still work. Free space there (${RESERVED_DISK_BYTES / 2 ** 20} MiB or more) and repeat the request: no restart is needed.`,
    DISK_FULL_RETRY_AFTER_SECONDS,
  );
}

/** Throws storageFull when `dir`'s file system has less than RESERVED_DISK_BYTES free. */
export function createSpaceCheck(dir: string): () => Promise<void> {
  let last = { at: Number.NEGATIVE_INFINITY, free: 0 };
  return async () => {
    if (performance.now() - last.at > LOOK_MS) {
      const stats = await statfs(dir);
      last = { at: performance.now(), free: stats.bavail * stats.bsize };
    }
    if (last.free < RESERVED_DISK_BYTES) throw storageFull(dir);
  };
}

/** Whether `error` is the database's refusal for a full disk (SQLSTATE 53100, or the system's ENOSPC). */
export function isDiskFull(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '53100' || code === 'ENOSPC' || (typeof message === 'string' && /No space left on device/.test(message))
  );
}
