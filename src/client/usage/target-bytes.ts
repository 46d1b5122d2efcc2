// The bytes of a `--check` target, a file or a URL, refused past the size any ramp-api package or description
// could have; and the bounds on what a package tarball may unpack to.
import { CheckTargetError } from './errors.js';
import { type FetchOptions, fetchBytes } from './fetch-bytes.js';
import { inMiB, MiB, readRegularFile } from './file-bytes.js';

export interface TargetLimits {
  /** A target as read: the file, or the body at the URL. */
  maxBytes: number;
  /** A package tarball, unpacked. */
  maxUnpackedBytes: number;
  /** One file read from a package tarball (its package.json, a description). */
  maxEntryBytes: number;
}

/** Far above what the package and its descriptions weigh, and far below what would strain a CI machine's memory. */
export const TARGET_LIMITS: TargetLimits = {
  maxBytes: 32 * MiB,
  maxUnpackedBytes: 128 * MiB,
  maxEntryBytes: 16 * MiB,
};

const tooLarge = (source: string, limits: TargetLimits) => () =>
  new CheckTargetError(
    `${source} is larger than ${inMiB(limits.maxBytes)}, more than any ramp-api package or description.`,
  );

/** Whether the target is an http(s) URL rather than a path. */
export const isUrl = (target: string): boolean => /^https?:\/\//.test(target);

/** The bytes of the target at `target`, a file or an http(s) URL. */
export async function targetBytes(target: string, limits: TargetLimits, options: FetchOptions = {}): Promise<Buffer> {
  if (isUrl(target))
    return fetchBytes(target, { maxBytes: limits.maxBytes, tooLarge: tooLarge(target, limits) }, options);
  return readRegularFile(target, limits.maxBytes, (message) => new CheckTargetError(message), tooLarge(target, limits));
}
