// Test support: a small file system of a test's own, a tmpfs it mounts (which needs root and a kernel that lets
// it mount: `cannotMount` says why not, so the test is skipped with the reason), filled by another file to leave
// a chosen number of bytes free, and unmounted when the test is done.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why a tmpfs cannot be mounted here, or null. */
export function cannotMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small file system needs root';
  const probe = mkdtempSync(join(tmpdir(), 'ramp-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `mount -t tmpfs is not allowed here (${String((error as Error).message).split('\n')[0]})`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A new folder with a tmpfs of `mib` MiB mounted on it. */
export function mountTmpfs(prefix: string, mib: number): string {
  const mountPoint = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', mountPoint]);
  return mountPoint;
}

/** Unmounts `mountPoint` (lazily: a process may still hold a file there) and removes the folder. */
export function unmountTmpfs(mountPoint: string): void {
  if (!mountPoint) return;
  execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
}

/** Bytes free for an unprivileged writer on the file system of `dir`. */
export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/** Takes all but about `leave` bytes of the file system of `mountPoint` with the file `filler`; returns its path. */
export function fillLeaving(mountPoint: string, leave: number, filler = join(mountPoint, 'filler')): string {
  execFileSync('fallocate', ['-l', String(Math.max(4096, freeBytes(mountPoint) - leave)), filler]);
  return filler;
}

/** An event subject of about 240 KB of random text (60 fields of 4,000 characters): a store fills fast with it. */
export function bulkySubject(): Record<string, string> {
  const subject: Record<string, string> = { id: randomUUID() };
  for (let k = 0; k < 60; k++) subject[`n${k}`] = randomBytes(3000).toString('base64');
  return subject;
}
