// The file `--out` names: written whole or not at all (to a temporary file beside it, then renamed over it). Only
// a regular file, or a link to one, is replaced; a path that exists as anything else (a folder, a device such as
// /dev/null, a pipe, a link to a file descriptor) or whose folder does not exist is refused before the project
// is read, and a failed write leaves no temporary file behind.
import { lstatSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errnoCode as code, UsageError } from './errors.js';

/** `--out` names what cannot take the usage file, or the file could not be written. */
class OutFileError extends UsageError {
  override name = 'OutFileError';
}

const notRegular = (file: string) =>
  new OutFileError(
    `--out ${file} is not a regular file (a folder, a device or a pipe): name a file to write the usage file to.`,
  );

/** What `path` is, following links, or undefined when nothing is there. */
function kind(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The regular file to write for `--out file`: `file`, or the file it links to; refused if it cannot be one. */
export function outputFile(file: string): string {
  let link: ReturnType<typeof lstatSync>;
  try {
    link = lstatSync(file);
  } catch (error) {
    if (code(error) === 'ENOENT') return inFolder(file);
    throw new OutFileError(`--out ${file}: cannot be read (${code(error)}).`);
  }
  const target = link.isSymbolicLink() ? linkTarget(file) : file;
  if (!kind(target)?.isFile()) throw notRegular(file);
  return target;
}

/** The file a link leads to. */
function linkTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    if (code(error) === 'ENOENT')
      throw new OutFileError(`--out ${file} is a link to nothing: name a file to write the usage file to.`);
    throw notRegular(file);
  }
}

/** A file that does not exist yet: its folder must. */
function inFolder(file: string): string {
  const folder = dirname(file);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {}
  if (!isFolder) throw new OutFileError(`--out ${file}: its folder does not exist.`);
  return file;
}

/** Writes `text` to `file` (as outputFile gives it) whole or not at all. */
export function writeWhole(file: string, text: string): void {
  const temporary = join(dirname(file), `.${process.pid}.${Date.now()}.usage.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new OutFileError(`--out ${file}: could not write it (${code(error)}).`);
  }
}
