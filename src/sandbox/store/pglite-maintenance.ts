// What PostgreSQL's background processes would do for a PGlite store, which runs PostgreSQL in single-user mode
// without them: without this, a PGlite store grew with every write, in any number, even writes that were refused.
// - Checkpoints. PostgreSQL keeps its write-ahead log until a checkpoint, which a server's checkpointer makes
//   every max_wal_size of log; single-user mode never makes one by itself, so the log grew without end (held in
//   the process, in memory). Here one is made each WRITTEN_BYTES_BEFORE_CHECKPOINT of statements' parameters
//   written, and the log's old segments are removed.
// - Vacuum. A transaction rolled back after it inserted (a record past its tenant's quota is refused at commit,
//   after the insert) leaves its rows in the tables as dead tuples, whose space only VACUUM gives back, and
//   PGlite has no autovacuum. Here the store is vacuumed each ROLLED_BACK_BYTES_BEFORE_VACUUM of parameters
//   rolled back, so later writes use that space again.
// Both run in the store's turn after a write, outside any transaction. (A PostgreSQL server does both itself.)

/** Bytes of parameters written (committed or not), past which a checkpoint is made. */
const WRITTEN_BYTES_BEFORE_CHECKPOINT = 16 * 1024 * 1024;
/** Bytes of parameters rolled back, past which the store is vacuumed. */
const ROLLED_BACK_BYTES_BEFORE_VACUUM = 4 * 1024 * 1024;

/** About how many bytes a statement puts into the database: its text, each text parameter's length, 8 for others. */
export function statementBytes(text: string, params: unknown[] | undefined): number {
  let bytes = text.length;
  for (const value of params ?? []) bytes += typeof value === 'string' ? value.length : 8;
  return bytes;
}

export interface Maintenance {
  /** A write statement of `bytes` (statementBytes) was sent. */
  wrote(bytes: number): void;
  /** A transaction that had sent `bytes` was rolled back. */
  rolledBack(bytes: number): void;
  /** Vacuums and makes a checkpoint when their bounds are passed; call in the store's turn, outside a transaction. */
  run(): Promise<void>;
}

/**
 * `simple` runs a statement without parameters (vacuum, checkpoint). One that fails (a full disk) is tried again
 * after the next write: the write's own answer is what its caller hears.
 */
export function createMaintenance(
  simple: (text: string) => Promise<unknown>,
  bounds = { checkpoint: WRITTEN_BYTES_BEFORE_CHECKPOINT, vacuum: ROLLED_BACK_BYTES_BEFORE_VACUUM },
): Maintenance {
  let written = 0;
  let rolledBack = 0;
  return {
    wrote(bytes) {
      written += bytes;
    },
    rolledBack(bytes) {
      rolledBack += bytes;
    },
    async run() {
      try {
        if (rolledBack >= bounds.vacuum) {
          await simple('vacuum');
          rolledBack = 0;
          written = bounds.checkpoint;
        }
        if (written >= bounds.checkpoint) {
          await simple('checkpoint');
          written = 0;
        }
      } catch {
        // Tried again after the next write.
      }
    },
  };
}
