// Which request-body fields the console makes fresh for each send (src/console/fresh.ts), read from the
// descriptions: a property whose description says it must be unique (an integration endpoint's `name`), and the
// caller-chosen record IDs the sandbox's own description says it refuses as taken (`external_user_id`, ...).

import { effectiveSchema, escapePointerToken, listOperations } from '../../src/client/lookup/index.js';
import type { FreshField, FreshFields } from '../../src/console/fresh.js';
import { requestSchema } from '../../src/sandbox/contract/lookup.js';
import { type OpenApiDocument, SANDBOX_FAMILY } from '../openapi/apis.js';

/** The names in code spans of the sandbox description's sentence that says such IDs are "refused as taken". */
export function takenIdentifiers(sandbox: OpenApiDocument | undefined): string[] {
  const text = String(sandbox?.info?.description ?? '').replace(/\s+/g, ' ');
  const sentence = text.split(/(?<=\.)\s/).find((s) => /refused as taken/.test(s)) ?? '';
  return [...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

export function freshFields(docs: { family: string; doc: OpenApiDocument }[]): FreshFields {
  const taken = takenIdentifiers(docs.find((d) => d.family === SANDBOX_FAMILY)?.doc);
  const fields: FreshFields = {};
  for (const { doc } of docs) {
    for (const entry of listOperations(doc)) {
      if (!entry.operation.requestBody) continue;
      const schema = effectiveSchema(doc, requestSchema(doc, entry));
      const own: FreshField[] = [];
      for (const [name, node] of Object.entries((schema?.properties ?? {}) as Record<string, unknown>)) {
        const property = effectiveSchema(doc, node);
        if (!/\bmust be unique\b/i.test(String(property.description ?? '')) && !taken.includes(name)) continue;
        own.push({
          pointer: `/${escapePointerToken(name)}`,
          ...(typeof property.format === 'string' ? { format: property.format } : {}),
          ...(typeof property.maxLength === 'number' ? { maxLength: property.maxLength } : {}),
        });
      }
      if (own.length) fields[entry.operationId] = own;
    }
  }
  return fields;
}
