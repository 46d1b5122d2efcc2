// `ramp-api usage --check NEW`: a consuming team's "can I upgrade". The descriptions NEW (a bundle file in JSON or
// YAML, the folder or the package tarball of a newer ramp-api, or the URL of a bundle or a tarball) are compared
// with those the project was built against by the gate's own rules, and each breaking change is matched with the
// project's usage.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isJsonObject, type OpenApiDocument } from '../lookup/index.js';
import { affectedBy, describeAffected, seen } from './affected.js';
import { type FamilyBundle, otherDescriptions } from './bundles.js';
import { changeText } from './change-lines.js';
import { compareDocuments } from './compare.js';
import { CheckTargetError, MissingPeerError } from './errors.js';
import type { FetchOptions } from './fetch-bytes.js';
import { readRegularFile } from './file-bytes.js';
import { isGzip, packageDescriptions, type TargetFile } from './package-tarball.js';
import { isUrl, TARGET_LIMITS, type TargetLimits, targetBytes } from './target-bytes.js';
import type { UsageFile } from './usage-file.js';
import { visibleText } from './visible-text.js';

function asDescription(value: unknown, source: string): OpenApiDocument {
  if (!isJsonObject(value) || typeof value.openapi !== 'string' || !isJsonObject(value.info))
    throw new CheckTargetError(`${source} is not an OpenAPI description (no "openapi" version and "info").`);
  return value as OpenApiDocument;
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CheckTargetError(`${source} is not an OpenAPI description in JSON.`);
  }
}

/** The version of the YAML parser (an optional peer of this package) that reads a description in YAML. */
const YAML_VERSION = '2.9.1';

async function parseYaml(text: string, source: string): Promise<unknown> {
  let yaml: typeof import('yaml');
  try {
    yaml = await import('yaml');
  } catch {
    throw new MissingPeerError(
      `${source} is in YAML, which needs the parser yaml: run \`npm i -D yaml@${YAML_VERSION}\`, or give the JSON bundle.`,
    );
  }
  try {
    return yaml.parse(text);
  } catch {
    throw new CheckTargetError(`${source} is not an OpenAPI description in JSON or YAML.`);
  }
}

/** A description's text, in JSON or in YAML (the two forms of the bundles the package ships). */
async function parseDescription(text: string, source: string): Promise<OpenApiDocument> {
  const start = text.trimStart()[0];
  if (start === '<') throw new CheckTargetError(`${source} is not an OpenAPI description (it looks like HTML).`);
  const value = start === '{' || start === '[' ? parseJson(text, source) : await parseYaml(text, source);
  return asDescription(value, source);
}

/** Descriptions in JSON by family, each parsed and checked. */
function describedFamilies(files: Map<string, TargetFile>): Map<string, OpenApiDocument> {
  const found = new Map<string, OpenApiDocument>();
  for (const [family, { source, text }] of files) found.set(family, asDescription(parseJson(text, source), source));
  return found;
}

/** The bundles of a folder: a ramp-api package's, a project's installed one, or a folder of `<family>.json`. */
function folderDescriptions(dir: string, limits: TargetLimits): Map<string, OpenApiDocument> {
  const candidates = [join(dir, 'dist', 'openapi'), join(dir, 'node_modules', 'ramp-api', 'dist', 'openapi'), dir];
  const folder = candidates.find((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json')));
  if (!folder) throw new CheckTargetError(`${dir} holds no descriptions (dist/openapi/<family>.json).`);
  const files = new Map<string, TargetFile>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
    const source = join(folder, file);
    const bytes = readRegularFile(source, limits.maxEntryBytes, (message) => new CheckTargetError(message));
    files.set(basename(file, '.json'), { source, text: bytes.toString('utf8') });
  }
  return describedFamilies(files);
}

/**
 * The `--check` target as read: a folder's or a tarball's descriptions by file name, or one description to place
 * by its title.
 */
export type Target =
  | { source: string; byFamily: Map<string, OpenApiDocument> }
  | { source: string; doc: OpenApiDocument };

export interface ReadOptions extends FetchOptions {
  /** The bounds on what is read: TARGET_LIMITS unless given. */
  limits?: TargetLimits;
}

/**
 * Reads and checks the new descriptions (a bundle file, a folder, a package tarball, or the URL of a bundle or a
 * tarball), before the project is read: a target that is no description is refused at once rather than after the
 * seconds of the project's analysis. A tarball is told from a bundle by its first bytes, not by its name.
 */
export async function readTarget(target: string, options: ReadOptions = {}): Promise<Target> {
  const { limits = TARGET_LIMITS, ...fetchOptions } = options;
  const url = isUrl(target);
  if (!url && !existsSync(target)) throw new CheckTargetError(`${target} does not exist.`);
  if (!url && statSync(target).isDirectory()) return { source: target, byFamily: folderDescriptions(target, limits) };
  const bytes = await targetBytes(target, limits, fetchOptions);
  if (isGzip(bytes)) return { source: target, byFamily: describedFamilies(packageDescriptions(bytes, target, limits)) };
  return { source: target, doc: await parseDescription(new TextDecoder().decode(bytes), target) };
}

/** The new descriptions, by family: a folder's by file name; a single description by its title. */
export function targetFamilies(target: Target, current: Map<string, FamilyBundle>): Map<string, OpenApiDocument> {
  if ('byFamily' in target) return target.byFamily;
  const { doc, source } = target;
  const family = [...current.values()].find((b) => b.doc.info.title === doc.info.title)?.family;
  if (!family)
    throw new CheckTargetError(
      `${source} describes "${doc.info.title}", which is none of the APIs this project uses (${[...current.values()].map((b) => b.doc.info.title).join(', ')}).`,
    );
  return new Map([[family, doc]]);
}

export interface CheckResult {
  lines: string[];
  /** Breaking changes that affect the project: seen to break it, or that may break it. */
  breaking: number;
}

/** A line for each family the usage file was built against other descriptions of than the installed package's. */
function builtAgainstOthers(usage: UsageFile, current: Map<string, FamilyBundle>): string[] {
  return [...current].flatMap(([family, { digest }]) => {
    const built = usage.descriptions[family];
    if (!built || !digest || built === digest) return [];
    const line = otherDescriptions(usage.consumer, family, built, digest, "the installed ramp-api's");
    return [`${line}: run \`npx ramp-api usage\` again.`];
  });
}

/** The last line: how many changes break the project, and how many more only may. */
function summary(consumer: string, breaks: number, mayBreak: number): string {
  if (!breaks && !mayBreak) return `No breaking change affects ${consumer}.`;
  const why = '(a request body built at run time)';
  if (!breaks) return `${mayBreak} breaking change(s) may break ${consumer} ${why}.`;
  const more = mayBreak ? `; ${mayBreak} more may break it ${why}` : '';
  return `${breaks} breaking change(s) break ${consumer}${more}.`;
}

/** Each breaking change between the project's descriptions and `next`, with what of the project it breaks. */
export function checkUsage(
  usage: UsageFile,
  current: Map<string, FamilyBundle>,
  next: Map<string, OpenApiDocument>,
): CheckResult {
  const lines = builtAgainstOthers(usage, current);
  let breaks = 0;
  let mayBreak = 0;
  for (const [family, bundle] of current) {
    const doc = next.get(family);
    if (!doc) continue;
    const changes = compareDocuments(bundle.doc, doc).filter((c) => c.breaking);
    for (const change of changes) {
      const affected = affectedBy(change, family, [usage]);
      if (affected.some(seen)) breaks++;
      else if (affected.length) mayBreak++;
      lines.push(`BREAKING  ${family} ${changeText(change)}`, `    ${describeAffected(affected)}`);
    }
  }
  lines.push(summary(usage.consumer, breaks, mayBreak));
  return { lines: lines.map(visibleText), breaking: breaks + mayBreak };
}
