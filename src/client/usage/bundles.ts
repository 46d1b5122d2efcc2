// The descriptions a consuming project was built against: the bundles `dist/openapi/<family>.json` of the
// package ramp-api whose generated types the project's code resolves to, loaded once per run, each with the
// digest of its bytes that the usage file pins.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  HTTP_METHODS,
  type JsonObject,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
} from '../lookup/index.js';
import { UsageError } from './errors.js';
import { parseJson } from './json-text.js';
import { childPointer } from './pointers.js';

export interface FamilyBundle {
  family: string;
  doc: OpenApiDocument;
  operations: OperationEntry[];
  /** operationId to the operation's pointer: `/paths/<path>/<method>`, or `/webhooks/<event>/post` for an event. */
  pointers: Map<string, string>;
  /** The bundle file's digest (bundleDigest), when the bundle was read from its file. */
  digest?: string;
}

/**
 * `sha256:<hex>` of a bundle file's bytes as the package ships it. The gate's baselines are byte copies of the
 * same files, so a usage file's digest and a baseline's compare.
 */
export const bundleDigest = (bytes: Uint8Array | string) =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** `sha256:` and the first 12 hex digits: enough to tell two bundles apart in a report line. */
const shortDigest = (digest: string) => digest.slice(0, 'sha256:'.length + 12);

/** The report line saying `consumer` was built against other `family` descriptions than `whose` (`expected`). */
export const otherDescriptions = (consumer: string, family: string, built: string, expected: string, whose: string) =>
  `${consumer} was built against other ${family} descriptions (${shortDigest(built)}) than ${whose} (${shortDigest(expected)})`;

/** The JSON `text` of `file`, or a UsageError naming the file and where its JSON stops. */
const jsonOf = (file: string, text: string) => parseJson(text, (problem) => new UsageError(`${file} is ${problem}.`));

/** The folder of the package ramp-api that holds `file`: the nearest folder above it with its package.json. */
export function packageRootOf(file: string): string | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    if ((jsonOf(manifest, readFileSync(manifest, 'utf8')) as { name?: string } | null)?.name === 'ramp-api') return dir;
  }
  return undefined;
}

export function familyBundle(family: string, doc: OpenApiDocument, digest?: string): FamilyBundle {
  const operations = listOperations(doc);
  const pointers = new Map(operations.map((e) => [e.operationId, childPointer('', 'paths', e.path, e.method)]));
  for (const [event, item] of Object.entries((doc.webhooks ?? {}) as JsonObject))
    for (const method of HTTP_METHODS) {
      const id = item?.[method]?.operationId;
      if (typeof id === 'string') pointers.set(id, childPointer('', 'webhooks', event, method));
    }
  return { family, doc, operations, pointers, ...(digest ? { digest } : {}) };
}

function readFamilyBundle(family: string, file: string): FamilyBundle {
  const bytes = readFileSync(file);
  return familyBundle(family, jsonOf(file, bytes.toString('utf8')) as OpenApiDocument, bundleDigest(bytes));
}

/** Loads each family's bundle once, from the package folder the generated types came from. */
export function bundleLoader(): (packageRoot: string, family: string) => FamilyBundle | undefined {
  const loaded = new Map<string, FamilyBundle | undefined>();
  return (packageRoot, family) => {
    const file = join(packageRoot, 'dist', 'openapi', `${family}.json`);
    if (!loaded.has(file)) loaded.set(file, existsSync(file) ? readFamilyBundle(family, file) : undefined);
    return loaded.get(file);
  };
}
