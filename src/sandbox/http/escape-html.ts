// HTML escaping, for the pages the sandbox writes itself (docs-page.ts) and the documentation site's pages
// (scripts/site/guide-pages.ts, scripts/site/landing.ts): one escape for text and double-quoted attribute values.

/** `text` escaped for HTML text and attribute values (nothing and null become ''). */
export const escapeHtml = (text: unknown): string =>
  String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
