// A ramp-api package tarball as `npm pack` makes it and a registry serves it (gzip data holding a tar archive
// whose entries sit under one top folder, `package/`): its package.json and its descriptions
// `dist/openapi/<family>.json`, read in memory, each bounded in size.
import { gunzipSync } from 'node:zlib';
import { isJsonObject } from '../lookup/index.js';
import { CheckTargetError } from './errors.js';
import { inMiB } from './file-bytes.js';
import type { TargetLimits } from './target-bytes.js';
import { type EntryFilter, tarEntries } from './ustar.js';

/** A file read from a target, named for the messages about it. */
export interface TargetFile {
  source: string;
  text: string;
}

/** Whether `bytes` are gzip data (its magic number), whatever the file or the URL is named. */
export const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;

function gunzip(bytes: Buffer, source: string, maxUnpackedBytes: number): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new CheckTargetError(
        `${source} unpacks to more than ${inMiB(maxUnpackedBytes)}, more than any ramp-api package.`,
      );
    if (code === 'Z_BUF_ERROR') throw new CheckTargetError(`${source} is truncated: its gzip data ends early.`);
    throw new CheckTargetError(`${source} is damaged gzip data (${(error as Error).message}).`);
  }
}

/** A path inside the package: the archive's without its top folder, which npm drops whatever its name. */
const inPackage = (path: string) => path.replace(/^(\.\/)?[^/]+\//, '');

const DESCRIPTION = /^dist\/openapi\/([^/]+)\.json$/;

/** The version the tarball's package.json gives, once it is ramp-api's. */
function rampApiVersion(manifest: string | undefined, source: string): string {
  const notRampApi = (why: string) => new CheckTargetError(`${source} is not a ramp-api package: ${why}.`);
  if (manifest === undefined) throw notRampApi('it has no package/package.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest);
  } catch {
    throw notRampApi('its package/package.json is not JSON');
  }
  const { name, version } = (isJsonObject(parsed) ? parsed : {}) as { name?: unknown; version?: unknown };
  if (name !== 'ramp-api')
    throw notRampApi(`its package/package.json names ${name === undefined ? 'no package' : JSON.stringify(name)}`);
  return typeof version === 'string' ? version : '(no version)';
}

/** The descriptions of the ramp-api package tarball `bytes`, by family; refused if it is not ramp-api's or has none. */
export function packageDescriptions(bytes: Buffer, source: string, limits: TargetLimits): Map<string, TargetFile> {
  const filter: EntryFilter = {
    wanted: (path) => inPackage(path) === 'package.json' || DESCRIPTION.test(inPackage(path)),
    maxEntryBytes: limits.maxEntryBytes,
    tooLarge: (path) =>
      new CheckTargetError(
        `${source}: ${path} is larger than ${inMiB(limits.maxEntryBytes)}, more than any description or package.json.`,
      ),
  };
  let manifest: string | undefined;
  const descriptions = new Map<string, TargetFile>();
  for (const { path, body } of tarEntries(gunzip(bytes, source, limits.maxUnpackedBytes), source, filter)) {
    const family = DESCRIPTION.exec(inPackage(path))?.[1];
    if (family) descriptions.set(family, { source: `${source} (${path})`, text: body.toString('utf8') });
    else manifest = body.toString('utf8');
  }
  const version = rampApiVersion(manifest, source);
  if (!descriptions.size)
    throw new CheckTargetError(
      `${source} is ramp-api ${version} without descriptions (no package/dist/openapi/<family>.json).`,
    );
  return descriptions;
}
