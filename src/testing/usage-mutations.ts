// Test support: breaking changes made to one response or payload field at a time in a copy of a family's bundle,
// and whom the compatibility gate (src/client/usage/compare.ts with its rules, and affected.ts, as `npm run compat -- --consumers`
// runs them) says each breaks; and the fields of a family's answers and payloads, to measure how often the gate
// rightly says `no known consumer` for those no traced read touched.
import { type JsonObject, type OpenApiDocument, pointerParts } from '../client/lookup/index.js';
import { affectedBy } from '../client/usage/affected.js';
import { familyBundle } from '../client/usage/bundles.js';
import { compareDocuments } from '../client/usage/compare.js';
import { declaredAt, nodeAt } from '../client/usage/pointers.js';
import { payloadPointers, responsePointers } from '../client/usage/reachable.js';
import type { UsageFile } from '../client/usage/usage-file.js';
import { readBundleJson } from './repo.js';

const FIELD = /^(.*)\/properties\/([^/]+)$/;

/** The value added to an enum so that it holds one it did not. */
export const NEW_ENUM_VALUE = 'ADDED_BY_MUTATION';

/** Adds a value to the enum of the field declared at `pointer`, if it has one. */
function widenEnum(doc: OpenApiDocument, pointer: string): boolean {
  const declared = declaredAt(doc, nodeAt(doc, pointer), pointer).node;
  if (!Array.isArray(declared?.enum)) return false;
  (declared.enum as unknown[]).push(NEW_ENUM_VALUE);
  return true;
}

/** Removes the field declared at `pointer` and drops it from its object's `required`. */
function removeField(doc: OpenApiDocument, pointer: string): void {
  const parent = nodeAt(doc, FIELD.exec(pointer)![1]!) as JsonObject;
  const name = pointerParts(pointer).at(-1)!;
  delete parent.properties[name];
  if (Array.isArray(parent.required)) parent.required = parent.required.filter((r: string) => r !== name);
}

/**
 * The breaking change to a field declared at `declarations` (each part of a composition that declares it), made
 * in `doc`: a value added to its enum if it has one, else the property removed from each and dropped from
 * `required`. Undefined when the bundle declares the field nowhere (a field of an open object): nothing to change.
 */
export function breakField(doc: OpenApiDocument, declarations: string[]): string | undefined {
  const declared = declarations.filter((p) => FIELD.test(p) && nodeAt(doc, p) !== undefined);
  if (!declared.length) return undefined;
  const widened = declared.map((p) => widenEnum(doc, p)).some(Boolean);
  if (widened) return 'enum value added';
  for (const pointer of declared) removeField(doc, pointer);
  return 'removed';
}

export interface Verdict {
  family: string;
  pointer: string;
  /** What was changed, or undefined when the field could not be changed. */
  change: string | undefined;
  /** Whether the rules find a breaking change in it. */
  breaking: boolean;
  /** The consumers the gate names for the change's breaking changes. */
  named: string[];
}

/**
 * Whom the gate names after the breaking change to a field of `family`'s bundle declared at `declarations` (the
 * first one is the field's pointer). `breaking` is false when the rules find no breaking change in it.
 */
export function gateVerdict(family: string, declarations: string[], usages: UsageFile[]): Verdict {
  const base = readBundleJson<OpenApiDocument>(family);
  const next = structuredClone(base);
  const pointer = declarations[0]!;
  const change = breakField(next, declarations);
  if (!change) return { family, pointer, change, breaking: false, named: [] };
  const breaking = compareDocuments(base, next).filter((c) => c.breaking);
  const named = new Set(breaking.flatMap((c) => affectedBy(c, family, usages).map((a) => a.consumer)));
  return { family, pointer, change, breaking: breaking.length > 0, named: [...named].sort() };
}

/** Every declared response or payload field of `family`'s bundle (`.../properties/<name>`), sorted. */
export function responseFields(family: string): string[] {
  const bundle = familyBundle(family, readBundleJson<OpenApiDocument>(family));
  const all = new Set<string>();
  for (const [id, pointer] of bundle.pointers) {
    const under = pointer.startsWith('/webhooks/')
      ? payloadPointers(bundle, pointerParts(pointer)[1]!)
      : responsePointers(bundle, pointer);
    for (const p of under) if (FIELD.test(p) && nodeAt(bundle.doc, p) !== undefined && id) all.add(p);
  }
  return [...all].sort();
}
