// The event mapping, as data: which transition emits which event comes from the state machine tables in
// ../core/states.ts (their `events` column); which business-webhook `process` receives an event is here.
// Inferred (the sandbox's own choice): the source shows neither.
import { machines } from '../core/states.js';

/** The business-API `process` whose webhooks receive each event (prefix match, longest first). */
const processOfEventPrefix: readonly (readonly [prefix: string, process: string])[] = [
  ['operation.transfer.', 'wallet_transfer'],
  ['wallet.', 'wallet_transfer'],
  ['operation.', 'ramp'],
  ['fiat.', 'ramp'],
  ['user.', 'compliance'],
  ['auth.', 'compliance'],
];

export function processOf(event: string): string | undefined {
  return processOfEventPrefix.find(([prefix]) => event.startsWith(prefix))?.[1];
}

/** Rows of the mapping: resource, from, trigger, to, event, business process. */
export function eventMappingRows(): {
  resource: string;
  from: string;
  trigger: string;
  to: string;
  event: string;
  process: string;
}[] {
  return Object.entries(machines).flatMap(([resource, machine]) =>
    machine.flatMap((t) =>
      t.events.map((event) => ({
        resource,
        from: t.from ?? '(new)',
        trigger: t.trigger,
        to: t.to,
        event,
        process: processOf(event) ?? '-',
      })),
    ),
  );
}

/** The mapping as a Markdown table (rendered into the sandbox description by scripts/build/event-mapping.ts). */
function eventMappingMarkdown(): string {
  const rows = eventMappingRows().map(
    (r) => `| ${r.resource} | ${r.from} → ${r.to} | \`${r.trigger}\` | \`${r.event}\` | \`${r.process}\` |`,
  );
  return [
    '| Resource | Transition | Trigger | Event | Business `process` |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The description that shows the mapping, relative to the repository root. */
export const MAPPING_FILE = 'openapi/sandbox/paths/sandbox_events.yaml';
const START = '<!-- event-mapping:start -->';
const END = '<!-- event-mapping:end -->';

/** `text` with the mapping table between its markers (indented like the start marker). */
export function renderMappingInto(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${MAPPING_FILE} lacks the ${START} and ${END} markers.`);
  const indent = text.slice(text.lastIndexOf('\n', start) + 1, start);
  const table = eventMappingMarkdown()
    .split('\n')
    .map((line) => `${indent}${line}\n`)
    .join('');
  return `${text.slice(0, start + START.length)}\n${table}${indent}${text.slice(end)}`;
}
