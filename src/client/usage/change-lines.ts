// The lines of a report of changes: a mark (`BREAKING`, `NOTICE`, `ok`), where, what, and the id of the rule that
// found it, which `npm run compat -- --explain ID` prints. The gate's report, its report with the consumers and
// `ramp-api usage --check` all write a change this way.
import type { Change } from './change.js';
import { visibleText } from './visible-text.js';

/** `BREAKING`, `NOTICE  ` or `ok      `: the mark of a change, eight characters wide. */
export const changeMark = (c: Change) => (c.breaking ? 'BREAKING' : c.notice ? 'NOTICE  ' : 'ok      ');

/** `GET /x (op): response 200: id: field removed [response-field-removed]`. */
export const changeText = (c: Change) => `${c.where}: ${c.what} [${c.rule}]`;

/** The gate's report: per family, a count of each kind of change, then a line per change. */
export function renderCompatReport(results: { api: string; changes: Change[] }[]): string {
  const lines: string[] = [];
  for (const { api, changes } of results) {
    const breaking = changes.filter((c) => c.breaking);
    const notices = changes.filter((c) => !c.breaking && c.notice);
    lines.push(
      `${api}: ${breaking.length} breaking, ${notices.length} behaviour notice(s), ${changes.length - breaking.length - notices.length} additive or neutral`,
    );
    for (const c of changes) lines.push(`  ${changeMark(c)}  ${changeText(c)}`);
  }
  return lines.map(visibleText).join('\n');
}
