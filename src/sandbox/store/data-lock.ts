// One sandbox process per data folder. PGlite's files are the process's own: two processes on one
// folder drift apart and lose what the other answered 201 for. The folder holds `sandbox.lock` with the pid
// (and, on Linux, the start time) of the process that holds it; a second process is refused naming it. A lock
// left by a process that no longer runs (killed with SIGKILL) is taken over: moved aside atomically, so of two
// processes taking it over at once one wins and the other is refused.

import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'sandbox.lock';

/** A data folder that cannot be used: in use by another process, a file, or not creatable. */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
  constructor(
    readonly dir: string,
    message: string,
    /** The process holding the folder, when that is the reason. */
    readonly pid?: number,
  ) {
    super(message);
  }
}

/** Creates `dir` when missing; refuses a file, or a folder that cannot be created, with a DataFolderError. */
export function prepareDataFolder(dir: string): void {
  let isFolder: boolean | undefined;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch {
    isFolder = undefined;
  }
  if (isFolder === false) throw new DataFolderError(dir, `${dir} is a file, not a folder.`);
  if (isFolder) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new DataFolderError(dir, `cannot create ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** The fields of /proc/PID/stat after the command name (field 3, the state, first), or null where unreadable. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** When process `pid` started (clock ticks since boot, from /proc), or null where that cannot be read. */
function startTicks(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/** Whether the process a lock names still runs (the same process: a pid reused since does not count). */
function running(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const fields = statFields(pid);
  // A process killed and not yet reaped by its parent (a zombie, Z, or dying, X) still answers kill(pid, 0),
  // but it runs no more and its files are closed: the folder is free.
  if (fields && (fields[0] === 'Z' || fields[0] === 'X')) return false;
  const now = fields?.[19] ?? null;
  return now === null || started === '' || now === started;
}

function holderOf(text: string): { pid: number; started: string } | null {
  const m = /^(\d+) (\d*)\n$/.exec(text);
  return m ? { pid: Number(m[1]), started: m[2]! } : null;
}

export interface DataFolderLock {
  release(): void;
}

/** Takes `dir` for this process (creating it when missing), or throws a DataFolderError naming the holder. */
export function lockDataFolder(dir: string): DataFolderLock {
  prepareDataFolder(dir);
  const lock = join(dir, LOCK_FILE);
  const mine = `${process.pid} ${startTicks(process.pid) ?? ''}\n`;
  const inUse = (pid: number) =>
    new DataFolderError(
      dir,
      `${dir} is in use by another sandbox (process ${pid}); stop it, or choose another folder.`,
      pid,
    );
  for (let tries = 0; tries < 10; tries++) {
    // Written whole under another name, then linked into place: the lock file is never seen half-written.
    const draft = join(dir, `.${LOCK_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
    writeFileSync(draft, mine);
    try {
      linkSync(draft, lock);
      const release = () => {
        process.off('exit', release);
        try {
          if (readFileSync(lock, 'utf8') === mine) unlinkSync(lock);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new DataFolderError(dir, `cannot write ${lock} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    } finally {
      unlinkSync(draft);
    }
    let held: string;
    try {
      held = readFileSync(lock, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const holder = holderOf(held);
    if (holder && running(holder.pid, holder.started)) throw inUse(holder.pid);
    // Left by a process that is gone: moved aside (only one of several takers can move it), then checked.
    const aside = join(dir, `.${LOCK_FILE}.stale.${process.pid}`);
    try {
      renameSync(lock, aside);
    } catch {
      continue;
    }
    const moved = readFileSync(aside, 'utf8');
    if (moved !== held) {
      // Another process took the folder between the read and the move: its lock goes back, and it holds the folder.
      try {
        linkSync(aside, lock);
      } finally {
        unlinkSync(aside);
      }
      throw inUse(holderOf(moved)?.pid ?? -1);
    }
    unlinkSync(aside);
  }
  throw new DataFolderError(dir, `${dir} is being taken by other sandboxes at the same time; try again.`);
}
