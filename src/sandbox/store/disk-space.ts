// Room for writes in a --data folder: PostgreSQL (PGlite) needs space to extend a table and to begin a new
// WAL segment (16 MiB); writing into a file system with less is refused before the database is asked, so the
// database never meets a full disk in the middle of a write, and reads go on. Once space returns, writes are
// taken again: nothing is remembered but the last look, for a moment.
import { statfs } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { SandboxLogger } from '../core/logger.js';
import { refusals } from '../core/refusals.js';

/** Free bytes a --data folder's file system must keep for a write to be taken: two WAL segments. */
export const RESERVED_DISK_BYTES = 32 * 1024 * 1024;
/** Seconds a client is told to wait (`Retry-After`) while the data folder's file system is full. */
const DISK_FULL_RETRY_AFTER_SECONDS = 30;
/** How long one look at the free space is trusted (ms): a write-heavy client costs a statfs this often at most. */
const LOOK_MS = 100;

/**
 * The refusal of a write while the data folder's file system is full. It names no path: a tenant, or a caller
 * with no token, has no business knowing where the server keeps its data; the operator's log has the folder.
 */
export function storageFull() {
  return refusals.storageFull(
    `The file system of the sandbox's data folder (--data) is full, so nothing was stored; reads still work. The operator's log names the folder: free space there (${RESERVED_DISK_BYTES / 2 ** 20} MiB or more) and repeat the request: no restart is needed.`,
    DISK_FULL_RETRY_AFTER_SECONDS,
  );
}

/** How the free space is looked at: the file system's answer, and how long one look is trusted (ms). */
export interface SpaceLook {
  statfs(dir: string): Promise<{ bavail: number | bigint; bsize: number | bigint }>;
  lookMs: number;
}

/**
 * Throws storageFull when `dir`'s file system has less than RESERVED_DISK_BYTES free, and tells the operator's
 * log, with the folder, each time the disk fills (not on every refused write).
 */
export function createSpaceCheck(
  dir: string,
  logger: SandboxLogger,
  look: SpaceLook = { statfs, lookMs: LOOK_MS },
): () => Promise<void> {
  let last = { at: Number.NEGATIVE_INFINITY, free: Number.POSITIVE_INFINITY };
  return async () => {
    if (performance.now() - last.at >= look.lookMs) {
      const stats = await look.statfs(dir);
      const free = Number(stats.bavail) * Number(stats.bsize);
      if (free < RESERVED_DISK_BYTES && last.free >= RESERVED_DISK_BYTES)
        logger.error(
          `[sandbox] the file system of the data folder ${dir} has ${free} bytes free, less than ${RESERVED_DISK_BYTES / 2 ** 20} MiB: writes are refused with 503 storage_full until space returns`,
        );
      last = { at: performance.now(), free };
    }
    if (last.free < RESERVED_DISK_BYTES) throw storageFull();
  };
}

/** Whether `error` is the database's refusal for a full disk (SQLSTATE 53100, or the system's ENOSPC). */
export function isDiskFull(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '53100' || code === 'ENOSPC' || (typeof message === 'string' && /No space left on device/.test(message))
  );
}
