// A reader of the tar archives npm makes (POSIX ustar, with pax headers for long names), enough to take a few
// regular files out of a package tarball held in memory. Nothing is written to disk and no link is followed; a
// damaged archive is refused, never read in part: a header whose checksum fails, an entry cut short, an archive
// that ends before its end marker.
import { CheckTargetError } from './errors.js';

const BLOCK = 512;

export interface TarEntry {
  /** The entry's path as the archive names it (`package/dist/openapi/v1.json`). */
  path: string;
  body: Buffer;
}

/** Which entries to return, and the size over which one of them (or a header of its own) is refused. */
export interface EntryFilter {
  wanted: (path: string) => boolean;
  maxEntryBytes: number;
  /** The refusal of `path`, an entry over `maxEntryBytes`. */
  tooLarge: (path: string) => CheckTargetError;
}

/** The text of a header field: up to its first NUL. */
function text(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

/** A numeric field: octal digits, or base-256 (the high bit set) for a size octal cannot hold. */
function number(header: Buffer, start: number, length: number): number {
  if (header[start]! & 0x80) {
    let value = header[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + header[i]!;
    return value;
  }
  const digits = text(header, start, length).trim();
  return /^[0-7]*$/.test(digits) ? Number.parseInt(digits || '0', 8) : Number.NaN;
}

/** Whether the header's checksum (its bytes summed, the checksum field counted as spaces) is the one it holds. */
function checksumHolds(header: Buffer): boolean {
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += header[i]!;
  return number(header, 148, 8) === sum;
}

/** The entry's path: a ustar header splits a long one into a prefix and a name. */
function headerPath(header: Buffer): string {
  const name = text(header, 0, 100);
  const ustar = text(header, 257, 6) === 'ustar';
  const prefix = ustar ? text(header, 345, 155) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** The `path` and `size` of a pax extended header (records `LEN key=value\n`), which override the next header's. */
function paxOverrides(body: Buffer): { path?: string; size?: number } {
  const found: { path?: string; size?: number } = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const length = Number.parseInt(body.subarray(at, space).toString('ascii'), 10);
    if (space < 0 || !(length > 0)) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const [key, value] = [record.slice(0, record.indexOf('=')), record.slice(record.indexOf('=') + 1)];
    if (key === 'path') found.path = value;
    if (key === 'size') found.size = Number(value);
    at += length;
  }
  return found;
}

/** The regular files of the archive `tar` that `filter` wants, in archive order (a path twice: both, in order). */
export function* tarEntries(tar: Buffer, source: string, filter: EntryFilter): Generator<TarEntry> {
  let overrides: { path?: string; size?: number } = {};
  for (let offset = 0; ; ) {
    if (offset + BLOCK > tar.length)
      throw new CheckTargetError(`${source} is truncated: the archive ends before its end marker.`);
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return;
    if (!checksumHolds(header))
      throw new CheckTargetError(`${source} is not a tar archive, or a damaged one (no tar header at byte ${offset}).`);
    const path = overrides.path ?? headerPath(header);
    const size = overrides.size ?? number(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    const start = offset + BLOCK;
    if (!Number.isSafeInteger(size) || start + size > tar.length)
      throw new CheckTargetError(`${source} is truncated: ${path} ends early.`);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    const metadata = type === 'x';
    const file = type === '0' || type === '\0' || type === '7';
    if (!metadata) overrides = {};
    if (!metadata && !(file && filter.wanted(path))) continue;
    if (size > filter.maxEntryBytes) throw filter.tooLarge(path);
    const body = tar.subarray(start, start + size);
    if (metadata) overrides = paxOverrides(body);
    else yield { path, body };
  }
}
