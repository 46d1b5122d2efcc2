// The bytes of a file `usage` is given by path (a `--check` target, a package folder's descriptions, a usage
// file): only a regular file, a link to one followed, and no larger than the caller's bound. The file is opened
// without waiting (a pipe nobody writes to) and looked at through what was opened, so what is read is what was
// checked: a device that never ends (/dev/zero), a pipe or a folder is refused by name, never read.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { errnoCode as code, type UsageError } from './errors.js';

/** Says why a file cannot be read, in the caller's error: the message names the file first. */
export type Refusal = (message: string) => UsageError;

export const MiB = 2 ** 20;

/** `bytes` in MiB, as the refusals say it. */
export const inMiB = (bytes: number) => `${bytes / MiB} MiB`;

/** Opens `file` for reading, or refuses it. */
function open(file: string, refuse: Refusal): number {
  try {
    return openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refuse(code(error) === 'ENOENT' ? `${file} does not exist.` : `${file} cannot be read (${code(error)}).`);
  }
}

/**
 * The bytes of the regular file `file`, at most `maxBytes`; anything else refused through `refuse` (a file too
 * large through `tooLarge`, when given).
 */
export function readRegularFile(file: string, maxBytes: number, refuse: Refusal, tooLarge?: () => UsageError): Buffer {
  const fd = open(file, refuse);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw refuse(`${file} is not a regular file (a folder, a device or a pipe): give a file.`);
    if (stat.size > maxBytes)
      throw tooLarge?.() ?? refuse(`${file} is larger than ${inMiB(maxBytes)}, more than it can be.`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
