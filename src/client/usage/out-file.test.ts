// Where `--out` writes the usage file: a regular file is replaced whole or not at all; what is not a regular file
// (a folder, a device, a pipe, a link to one) or has no folder is refused in one named error, before the
// project is read, and no temporary file is left behind, also when the file system is full.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cannotMount, fillLeaving, mountTmpfs, unmountTmpfs } from '../../testing/tmpfs.js';
import { UsageError } from './errors.js';
import { outputFile, writeWhole } from './out-file.js';

const dir = mkdtempSync(join(tmpdir(), 'usage-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `path`, once `make` has made something there. */
function made(path: string, make: (path: string) => unknown): string {
  make(path);
  return path;
}

describe('--out', () => {
  it('replaces a regular file whole, and writes through a link to one', () => {
    const file = join(dir, 'usage.json');
    writeFileSync(file, 'old');
    writeWhole(outputFile(file), 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    const link = join(dir, 'link.json');
    symlinkSync(file, link);
    writeWhole(outputFile(link), 'newer');
    expect(readFileSync(file, 'utf8')).toBe('newer');
    expect(statSync(link).isFile()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'usage.json']);
  });

  it.each([
    ['a folder', () => made(join(dir, 'folder'), (path) => mkdirSync(path)), 'is not a regular file'],
    ['a character device', () => '/dev/null', 'is not a regular file'],
    ['a link to a file descriptor', () => '/dev/stdout', 'is not a regular file'],
    ['a pipe', () => made(join(dir, 'fifo'), (path) => execFileSync('mkfifo', [path])), 'is not a regular file'],
    [
      'a link to nothing',
      () => made(join(dir, 'dangling'), (path) => symlinkSync(join(dir, 'gone'), path)),
      'is a link to nothing',
    ],
    ['a file in a missing folder', () => join(dir, 'missing', 'usage.json'), 'its folder does not exist'],
  ])('%s is refused by name, nothing written', (_, make, message) => {
    const path = make();
    const before = readdirSync(dir).sort();
    expect(() => outputFile(path)).toThrow(UsageError);
    expect(() => outputFile(path)).toThrow(`--out ${path}`);
    expect(() => outputFile(path)).toThrow(message);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  const noMount = cannotMount();
  it.skipIf(noMount !== null)(
    `on a full file system, is refused by name, no temporary file left${noMount ? ` (skipped: ${noMount})` : ''}`,
    () => {
      const mount = mountTmpfs('usage-out-full-', 1);
      try {
        fillLeaving(mount, 0);
        const file = join(mount, 'usage.json');
        expect(() => writeWhole(outputFile(file), 'x'.repeat(256 * 1024))).toThrow(
          /--out .*usage\.json: could not write it \(ENOSPC/,
        );
        expect(readdirSync(mount)).toEqual(['filler']);
      } finally {
        unmountTmpfs(mount);
      }
    },
  );
});
