// A sequence diagram of a journey as SVG, drawn when the site is built (no browser, nothing downloaded): the
// caller and each API it calls as lifelines, one request arrow and one dashed answer arrow per call, in order.
// Offline diagram tools do not fit a build without a browser: Mermaid renders only in a DOM (its CLI drives a
// downloaded Chromium) and Graphviz draws graphs, not sequences; a linear sequence of calls needs little.
import { escapeHtml as esc } from '../../src/sandbox/http/escape-html.js';

export interface DiagramCall {
  /** The participant called (an API's name). */
  to: string;
  /** The request's label (`1. createClientToken`). */
  request: string;
  /** The answer's label (`200: accessToken`). */
  answer: string;
}

export interface Diagram {
  /** Lifelines, left to right; the first is the caller. */
  participants: string[];
  calls: DiagramCall[];
}

const MARGIN = 20;
const HEAD = 44;
const ROW = 30;
const FONT = 12.5;
/** A label's width in a sans-serif font of FONT px, as a rough upper bound (no text measurement at build time). */
const widthOf = (text: string) => Math.ceil(text.length * FONT * 0.58);

/** Cuts a label to what fits between two lifelines, with an ellipsis. */
function clip(text: string, room: number): string {
  const max = Math.floor(room / (FONT * 0.58));
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** The diagram as an SVG element; its title and description name it for assistive technology. */
export function renderSequenceDiagram(diagram: Diagram, title: string, id: string): string {
  const { participants, calls } = diagram;
  // Wide enough for the longest label between neighbours, within bounds; longer ones are cut.
  const widest = Math.max(0, ...calls.flatMap((c) => [widthOf(c.request), widthOf(c.answer)]));
  const COLUMN = Math.min(320, Math.max(200, widest + 24));
  const x = (name: string) => MARGIN + COLUMN / 2 + participants.indexOf(name) * COLUMN;
  const width = MARGIN * 2 + participants.length * COLUMN;
  const height = HEAD + 20 + calls.length * ROW * 2 + 20;
  const parts: string[] = [];
  for (const name of participants) {
    const cx = x(name);
    parts.push(
      `<rect x="${cx - COLUMN / 2 + 10}" y="6" width="${COLUMN - 20}" height="30" rx="5" fill="#eef2f7" stroke="#12355b"/>`,
      `<text x="${cx}" y="26" text-anchor="middle" font-weight="600">${esc(clip(name, COLUMN - 28))}</text>`,
      `<line x1="${cx}" y1="36" x2="${cx}" y2="${height - 10}" stroke="#8792a2" stroke-dasharray="4 4"/>`,
    );
  }
  const caller = x(participants[0]!);
  calls.forEach((call, index) => {
    const y = HEAD + 20 + index * ROW * 2;
    const to = x(call.to);
    const room = Math.abs(to - caller) - 16;
    const mid = (caller + to) / 2;
    parts.push(
      `<line x1="${caller}" y1="${y + 8}" x2="${to - 6}" y2="${y + 8}" stroke="#12355b" stroke-width="1.6" marker-end="url(#${id}-arrow)"/>`,
      `<text x="${mid}" y="${y + 2}" text-anchor="middle">${esc(clip(call.request, room))}</text>`,
      `<line x1="${to}" y1="${y + ROW + 8}" x2="${caller + 6}" y2="${y + ROW + 8}" stroke="#3d4756" stroke-width="1.2" stroke-dasharray="5 3" marker-end="url(#${id}-arrow-back)"/>`,
      `<text x="${mid}" y="${y + ROW + 2}" text-anchor="middle" fill="#3d4756">${esc(clip(call.answer, room))}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title ${id}-desc" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="${FONT}">
<title id="${id}-title">${esc(title)}</title>
<desc id="${id}-desc">${esc(describe(diagram))}</desc>
<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#12355b"/></marker><marker id="${id}-arrow-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#3d4756"/></marker></defs>
${parts.join('\n')}
</svg>`;
}

/** The diagram in words, one sentence per call: its text alternative. */
export function describe(diagram: Diagram): string {
  const caller = diagram.participants[0]!;
  return diagram.calls
    .map((call) => `${call.request}: ${caller} calls the ${call.to}, which answers ${call.answer}.`)
    .join(' ');
}
