// Text read from a file (a journey run's results, a consumer's usage file) written into Markdown: the journeys'
// report for a CI step summary, and the descriptions the docs site renders. Whatever the text holds, it stays text:
// no line break to start a heading or a list, no HTML, no link, no code span or code block it can close.
import { visibleText } from '../../src/client/usage/visible-text.js';

/**
 * What Markdown gives a meaning to inside a line: backslash escapes, code spans, emphasis, links and images,
 * headings, table cells, strikethrough, autolinks (`javascript:`) and GitHub's math. Each is written escaped.
 */
const MARKUP = /[\\`*_{}[\]()#+!|~:$]/g;
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** `text` as Markdown that shows it as it is, on one line: control characters as their escapes (`\n`). */
export const markdownText = (text: string): string =>
  visibleText(text)
    .replace(MARKUP, '\\$&')
    .replace(/[&<>]/g, (char) => HTML_ENTITIES[char]!);

/** A run of backticks longer than any in `text` (and at least `least` long): a fence nothing in it closes. */
function fenceFor(text: string, least: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(least, longest + 1));
}

/** `text` as a code span on one line, whatever backticks it holds (padded where it starts or ends with one). */
export function codeSpan(text: string): string {
  const shown = visibleText(text);
  const fence = fenceFor(shown, 1);
  const pad = /^[` ]|[` ]$|^$/.test(shown) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** `text`'s lines (a code frame) as a fenced code block indented by `indent`, as a list item holds it. */
export function codeBlock(text: string, indent = ''): string {
  const lines = text.split(/\r\n|\r|\n/).map(visibleText);
  const fence = fenceFor(lines.join('\n'), 3);
  return [`${fence}text`, ...lines, fence].map((line) => (line ? `${indent}${line}` : '')).join('\n');
}
