// The service's own words for a refusal, for an error's message: its error code and its message, read from the
// usual shapes of an error body (`{ error, message }`, `{ code, message }`, `{ error: { code, message } }`, a
// problem's `detail`, OAuth's `error_description`). Each is cut short and kept on one line, so that whatever
// a server sends, the message stays readable in a test runner's output and a log line.

/** The most characters of an error code, and of a message, that a message carries. */
const CODE_MAX = 60;
const MESSAGE_MAX = 240;

/** `value` on one line (control characters and line breaks as spaces), at most `max` characters; '' if not a text. */
function clip(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const line = value.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…` : line;
}

/** `code: message` from an error body, either alone where the other is missing, or '' when it has neither. */
export function reasonOf(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const top = body as Record<string, unknown>;
  const inner = top.error && typeof top.error === 'object' ? (top.error as Record<string, unknown>) : top;
  const code = clip(inner.code, CODE_MAX) || clip(inner.error, CODE_MAX);
  const message = clip(inner.message ?? inner.detail ?? inner.error_description, MESSAGE_MAX);
  return [code, message].filter(Boolean).join(': ');
}

/**
 * What follows `failed with HTTP 422` in a message: `: reason; likely cause: ...` (a part's closing period
 * dropped where another follows), or '' when nothing is known.
 */
export function saying(...parts: (string | undefined)[]): string {
  const known = parts.filter((part): part is string => !!part);
  return known.length
    ? `: ${known.map((part, i) => (i < known.length - 1 ? part.replace(/\.$/, '') : part)).join('; ')}`
    : '';
}
