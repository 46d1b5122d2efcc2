// Text read from a file (a consumer's name, a field pointer, a description's title) as a terminal or a page may
// show it: every control character escaped as JSON writes it (`\n`, `\u001b`), so that none breaks a line, clears
// the screen or opens a hyperlink, and the reader still sees that something was there.

/**
 * C0 controls, DEL, C1 controls, the line and paragraph separators, and the bidirectional overrides and isolates
 * that reorder what a terminal shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The escape JSON writes for a control character: `\n`, `\r`, `\t`, else `\u` and its code (`\u001b`). */
const escapeOf = (char: string) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with each control character shown as its escape: one line, nothing a terminal acts on. */
export const visibleText = (text: string): string => text.replace(CONTROLS, escapeOf);
