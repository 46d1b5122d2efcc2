// The usage file: its types, its format version, how it is written (sorted keys and arrays, so that it is the
// same across runs and diffs well) and how it is read (checked against usage.schema.json, which ships with it).
import { MissingPeerError, UsageFormatError } from './errors.js';
import { readRegularFile } from './file-bytes.js';
import { parseJson } from './json-text.js';
import schema from './usage.schema.json' with { type: 'json' };

export const USAGE_FORMAT_VERSION = 2;

export interface FieldUse {
  pointer: string;
  sites: string[];
  whole?: true;
}

/** A call whose request body (or a part of it) is built where the extractor cannot follow it. */
export interface DynamicBody {
  site: string;
  /** Why, as `the body is built at run time (a parameter at src/a.ts:3)`. */
  reason: string;
  /** The part not followed, a field's pointer; absent: the whole body. */
  pointer?: string;
}

export interface OperationUse {
  family: string;
  operationId: string;
  method: string;
  path: string;
  calls: string[];
  parameters: string[];
  requestFields: FieldUse[];
  requestDynamic?: DynamicBody[];
  responseFields: FieldUse[];
  statuses: string[];
}

export interface EventUse {
  family: string;
  event: string;
  handlers: string[];
  payloadFields: FieldUse[];
}

export interface UsageFile {
  formatVersion: number;
  consumer: string;
  /** Each family's bundle the file was built against, by its digest (`sha256:<hex>`, bundleDigest). */
  descriptions: Record<string, string>;
  operations: OperationUse[];
  events: EventUse[];
  otherFields: (FieldUse & { family: string })[];
}

/** Sites (`file:line`) in file order, then line order. */
const bySite = (a: string, b: string) => {
  const [fa, la] = [a.slice(0, a.lastIndexOf(':')), Number(a.slice(a.lastIndexOf(':') + 1))];
  const [fb, lb] = [b.slice(0, b.lastIndexOf(':')), Number(b.slice(b.lastIndexOf(':') + 1))];
  return fa < fb ? -1 : fa > fb ? 1 : la - lb;
};
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted, deduplicated sites. */
export const sortSites = (sites: Iterable<string>) => [...new Set(sites)].sort(bySite);

/** The value with its object keys sorted, recursively (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort(text)
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}

const sortFields = <F extends FieldUse>(fields: F[]) =>
  fields.map((f) => ({ ...f, sites: sortSites(f.sites) })).sort((a, b) => text(a.pointer, b.pointer));

/** Dynamic bodies by site, reason and pointer, each once. */
function sortDynamic(entries: DynamicBody[]): DynamicBody[] {
  const key = (d: DynamicBody) => JSON.stringify([d.reason, d.pointer ?? '']);
  const unique = new Map(entries.map((d) => [`${d.site} ${key(d)}`, d]));
  return [...unique.values()].sort((a, b) => bySite(a.site, b.site) || text(key(a), key(b)));
}

/** The usage file's text: every array in a fixed order and every object's keys sorted. */
export function serializeUsage(usage: UsageFile): string {
  const sorted: UsageFile = {
    ...usage,
    operations: usage.operations
      .map((op) => ({
        ...op,
        calls: sortSites(op.calls),
        parameters: [...new Set(op.parameters)].sort(text),
        requestFields: sortFields(op.requestFields),
        ...(op.requestDynamic?.length ? { requestDynamic: sortDynamic(op.requestDynamic) } : {}),
        responseFields: sortFields(op.responseFields),
        statuses: [...new Set(op.statuses)].sort(text),
      }))
      .sort((a, b) => text(a.family, b.family) || text(a.path, b.path) || text(a.method, b.method)),
    events: usage.events
      .map((e) => ({ ...e, handlers: sortSites(e.handlers), payloadFields: sortFields(e.payloadFields) }))
      .sort((a, b) => text(a.family, b.family) || text(a.event, b.event)),
    otherFields: sortFields(usage.otherFields).sort((a, b) => text(a.family, b.family) || text(a.pointer, b.pointer)),
  };
  return `${JSON.stringify(sortKeys(sorted), null, 2)}\n`;
}

/** Refuses a value that is no usage file, or one of another format version, naming it and what to do. */
function checkFormatVersion(value: unknown, source: string): void {
  const version = value && typeof value === 'object' ? (value as { formatVersion?: unknown }).formatVersion : undefined;
  if (version === undefined)
    throw new UsageFormatError(
      `${source} is not a usage file (no formatVersion: write one with \`npx ramp-api usage\`).`,
    );
  if (version === USAGE_FORMAT_VERSION) return;
  const remedy =
    typeof version === 'number' && version < USAGE_FORMAT_VERSION
      ? 'make it again with `npx ramp-api usage`'
      : 'read it with the ramp-api that wrote it';
  throw new UsageFormatError(
    `${source} is a usage file of format version ${JSON.stringify(version)}; this ramp-api reads version ${USAGE_FORMAT_VERSION}: ${remedy}.`,
  );
}

/**
 * A cache of one: the usage file's schema, compiled once per process however many files the gate reads. Kept
 * only once made, so a missing Ajv is asked for again.
 */
let compiled: import('ajv').ValidateFunction | undefined;

async function compiledSchema(): Promise<import('ajv').ValidateFunction> {
  if (compiled) return compiled;
  let Ajv2020: typeof import('ajv/dist/2020.js').Ajv2020;
  try {
    ({ Ajv2020 } = await import('ajv/dist/2020.js'));
  } catch {
    throw new MissingPeerError('Reading usage files needs the validator ajv: run `npm i -D ajv@8.20.0`.');
  }
  compiled = new Ajv2020({ allErrors: false, strict: true }).compile(schema);
  return compiled;
}

/** Checks a parsed usage file against the schema (with Ajv, an optional peer of this package). */
export async function validateUsage(value: unknown, source: string): Promise<UsageFile> {
  checkFormatVersion(value, source);
  const validate = await compiledSchema();
  if (!validate(value)) {
    const [first] = validate.errors ?? [];
    throw new UsageFormatError(
      `${source} does not match the usage file's schema: ${first?.instancePath || '(root)'} ${first?.message ?? ''}.`,
    );
  }
  return value as unknown as UsageFile;
}

/** Far above any project's usage file, and far below what would strain a CI machine's memory. */
const USAGE_FILE_MAX_BYTES = 32 * 2 ** 20;

/** Reads and checks one usage file. */
export async function readUsageFile(file: string): Promise<UsageFile> {
  const refuse = (message: string) => new UsageFormatError(message);
  const value = parseJson(
    readRegularFile(file, USAGE_FILE_MAX_BYTES, refuse).toString('utf8'),
    (problem) => new UsageFormatError(`${file} is not a JSON usage file: ${problem}.`),
  );
  return validateUsage(value, file);
}
