// The protection headers of every answer: nothing is sniffed into another type, and each answer carries a
// Content-Security-Policy that allows what it runs and nothing more: nothing at all for JSON and refusals, and
// for an HTML document (the control API's reference at /sandbox/docs) its own inline scripts and styles by hash.
import { createHash } from 'node:crypto';

/** A JSON answer or a refusal: it loads nothing and may not be framed. */
export const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers every answer carries, whatever its type. */
export const COMMON_HEADERS = { 'x-content-type-options': 'nosniff' } as const;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const decode = (value: string) =>
  value.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_, name: string) =>
    name === 'quot' ? '"' : name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  );

/**
 * The policy of a self-contained HTML document: its inline scripts and styles allowed by the hash of each, its
 * style attributes by hash too ('unsafe-hashes' allows those exact attribute values and nothing else), an empty
 * style element (where a styling library inserts its rules through the CSSOM), images inlined as data: URLs,
 * workers the page makes from its own code (blob:), calls to this origin, and nothing from anywhere else.
 *
 * Style attributes its scripts write: a script template `style="PREFIX var(${...})SUFFIX"` (Redoc colours the
 * tokens of a code sample with `style="color: var(--code-block-tokens-keyword-color)"`) is allowed for each CSS
 * variable the scripts name in a string literal, the only values such a template is given.
 */
export function documentPolicy(html: string): string {
  const scripts = new Set<string>();
  const scriptTexts: string[] = [];
  const styles = new Set<string>([hash('')]);
  const withoutElements = html.replace(
    /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi,
    (_, tag: string, attributes: string, body: string) => {
      if (tag.toLowerCase() === 'style') styles.add(hash(body));
      else if (!/\bsrc\s*=/i.test(attributes)) {
        scripts.add(hash(body));
        scriptTexts.push(body);
      }
      return '';
    },
  );
  const attributes = new Set<string>();
  for (const m of withoutElements.matchAll(/\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/gi))
    attributes.add(hash(decode(m[1] ?? m[2] ?? '')));
  const code = scriptTexts.join('\n');
  const variables = new Set([...code.matchAll(/[`"'](--[A-Za-z0-9-]+)[`"']/g)].map((m) => m[1]!));
  for (const m of code.matchAll(/ style="([^"$`]*)var\(\$\{[^}]*\}\)([^"$`]*)"/g))
    for (const variable of variables) attributes.add(hash(`${m[1]}var(${variable})${m[2]}`));
  return [
    "default-src 'none'",
    `script-src ${[...scripts].join(' ') || "'none'"}`,
    `style-src ${[...styles].join(' ')}${attributes.size ? ` 'unsafe-hashes' ${[...attributes].join(' ')}` : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** documentPolicy of the last document asked for: the reference is one page of megabytes, hashed once per version. */
export function createDocumentPolicies(): (html: string) => string {
  let last: { html: string; policy: string } | undefined;
  return (html) => {
    if (last?.html !== html) last = { html, policy: documentPolicy(html) };
    return last.policy;
  };
}
