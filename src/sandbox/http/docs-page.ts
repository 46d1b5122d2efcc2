// What /sandbox/docs shows where the rendered reference (../contract/reference.ts) was never built, as in a
// checkout before any bundle, build or docs run: the operations by summary, the description, and how to build
// the page.
import type { OpenApiDocument } from '../contract/document.js';
import { escapeHtml } from './escape-html.js';

export function unbuiltDocsPage(docs: OpenApiDocument): string {
  const rows = Object.entries(docs.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId?: string; summary?: string } | undefined>)
      .filter(([, op]) => op && typeof op === 'object' && op.operationId)
      .map(
        ([method, op]) =>
          `<tr><td><code>${escapeHtml(op?.operationId)}</code></td><td><code>${method.toUpperCase()} ${escapeHtml(path)}</code></td><td>${escapeHtml(op?.summary)}</td></tr>`,
      ),
  );
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(docs.info.title)}</title><style>body{font-family:sans-serif;max-width:70em;margin:2em auto}td{vertical-align:top;border-top:1px solid #ddd;padding:.4em}</style>
<h1>${escapeHtml(docs.info.title)}</h1><p>${escapeHtml(docs.info.summary)}</p>
<p>The rendered reference is not built here: <code>npm run bundle</code> (or <code>npm run docs</code>) in the repository builds it, and the package ships it. Meanwhile, the description: <a href="/sandbox/openapi.json">/sandbox/openapi.json</a> (typed client: <code>createSandboxClient</code> from <code>ramp-api/sandbox</code>).</p>
<table><tr><th>operationId</th><th>Call</th><th>What it does</th></tr>${rows.join('')}</table>`;
}
