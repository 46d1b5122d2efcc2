// The known consumers in the docs site, from the same usage files as the gate: each operation's and event's
// reference says which consumers use it and which of its fields they read, and one page lists what nobody uses.
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { HTTP_METHODS, type JsonObject, listOperations, unescapePointerToken } from '../../src/client/lookup/index.js';
import { familyBundle } from '../../src/client/usage/bundles.js';
import { unusedIn } from '../../src/client/usage/unused.js';
import type { FieldUse, UsageFile } from '../../src/client/usage/usage-file.js';
import { codeSpan, markdownText } from '../openapi/markdown.js';

/** `id`, `data.status`: a field pointer as a reader names it (its `properties` path; `[]` for array items). */
export function fieldName(pointer: string): string {
  const parts = pointer.split('/').map(unescapePointerToken);
  const names: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === 'properties' && parts[i + 1] !== undefined) names.push(parts[++i]!);
    else if (parts[i] === 'items' && names.length) names[names.length - 1] += '[]';
  }
  return names.join('.') || '(whole body)';
}

/** A consumer and the fields it reads, from its usage file: the name as text, each field in code, both inert. */
function usesText(consumer: string, fields: FieldUse[]): string {
  if (!fields.length) return markdownText(consumer);
  const names = [...new Set(fields.map((f) => `${codeSpan(fieldName(f.pointer))}${f.whole ? ' (whole)' : ''}`))];
  return `${markdownText(consumer)} (reads ${names.join(', ')})`;
}

/** The sentence an operation's or event's description gets: who uses it and the fields each reads. */
export function consumersSentence(uses: { consumer: string; fields: FieldUse[] }[]): string {
  if (!uses.length) return '\n\n**Known consumers:** none.';
  return `\n\n**Known consumers:** ${uses.map((u) => usesText(u.consumer, u.fields)).join('; ')}.`;
}

/** A copy of a family's bundle whose operations and events name their known consumers. */
export function withConsumers(family: string, doc: OpenApiDocument, usages: UsageFile[]): OpenApiDocument {
  const copy = structuredClone(doc);
  for (const entry of listOperations(copy)) {
    const uses = usages.flatMap((u) =>
      u.operations
        .filter((o) => o.family === family && o.method === entry.method && o.path === entry.path)
        .map((o) => ({ consumer: u.consumer, fields: o.responseFields })),
    );
    entry.operation.description = `${entry.operation.description ?? ''}${consumersSentence(uses)}`;
  }
  for (const [event, item] of Object.entries((copy.webhooks ?? {}) as JsonObject)) {
    const uses = usages.flatMap((u) =>
      u.events
        .filter((e) => e.family === family && e.event === event)
        .map((e) => ({ consumer: u.consumer, fields: e.payloadFields })),
    );
    for (const method of HTTP_METHODS)
      if (item?.[method]) item[method].description = `${item[method].description ?? ''}${consumersSentence(uses)}`;
  }
  return copy;
}

/** Where the site puts the page of what nobody uses. */
export const UNUSED_PAGE = 'unused.html';

const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page of what no known consumer uses, by family: operations, events, and response or payload fields. */
export function unusedPage(families: { family: string; doc: OpenApiDocument }[], usages: UsageFile[]): string {
  const sections = families.map(({ family, doc }) => {
    const unused = unusedIn(familyBundle(family, doc), usages);
    const list = (items: string[]) =>
      items.length ? `<ul>${items.map((item) => `<li><code>${html(item)}</code></li>`).join('')}</ul>` : '<p>None.</p>';
    return `<section><h2>${html(doc.info.title)}</h2>
<h3>Operations (${unused.operations.length})</h3>${list(unused.operations)}
<h3>Events (${unused.events.length})</h3>${list(unused.events)}
<h3>Response and payload fields (${unused.fields.length})</h3>${list(unused.fields)}</section>`;
  });
  const consumers = usages.map((u) => html(u.consumer)).join(', ') || 'none';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>What no known consumer uses</title></head>
<body><main><h1>What no known consumer uses</h1>
<p>From the usage files of the known consumers (${consumers}), written by <code>npx ramp-api usage</code>: the candidates for deprecation.</p>
${sections.join('\n')}</main></body></html>
`;
}
