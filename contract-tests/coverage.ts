// The matrix of operations x documented statuses, computed from the bundles, and the report of which
// cells a run exercised.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '../scripts/openapi/apis.js';
import { listOperations } from '../src/client/lookup/index.js';

export interface Observation {
  family: string;
  operationId: string;
  status: number;
}

export interface CoverageRow {
  family: string;
  operationId: string;
  method: string;
  path: string;
  documented: string[];
  exercised: string[];
  missing: string[];
  undocumented: number[];
}

/** The documented response key an HTTP status falls under: the exact code, or its range (`4XX`). */
export function documentedKey(documented: string[], status: number): string | undefined {
  const exact = String(status);
  if (documented.includes(exact)) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  return documented.includes(range) ? range : undefined;
}

/** What is wrong with the status a request was refused with: not a 4xx, or a 4xx the operation does not document. */
export function refusalProblem(documented: string[], status: number): string | undefined {
  if (status < 400 || status >= 500) return `answered ${status}, not a 4xx`;
  if (documentedKey(documented, status) === undefined)
    return `refused with ${status}, which the operation does not document (it documents ${documented.join(', ')})`;
  return undefined;
}

export interface Refusal {
  family: string;
  operationId: string;
  /** What was broken, e.g. `body.amount: 0 (exclusiveMinimum 0)`, or `no token`. */
  broken: string;
  status: number;
  documented: boolean;
}

/** Writes `contract-refusals.json` and `.md`: every refusal the run saw, with its status, per operation. */
export function writeRefusalReport(dir: string, refusals: Refusal[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'contract-refusals.json'), `${JSON.stringify(refusals, null, 2)}\n`);
  const byOperation = new Map<string, Refusal[]>();
  for (const r of refusals)
    byOperation.set(`${r.family} ${r.operationId}`, [...(byOperation.get(`${r.family} ${r.operationId}`) ?? []), r]);
  const summary = [...byOperation].map(([op, list]) => {
    const counts = new Map<number, number>();
    for (const r of list) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    const undocumented = list.filter((r) => !r.documented).map((r) => r.status);
    return {
      op,
      statuses: [...counts].map(([status, n]) => `${status} x${n}`).join(', '),
      undocumented: [...new Set(undocumented)].join(', ') || '-',
    };
  });
  const lines = [
    '# Refusals',
    '',
    'Every refusal the negative suite provoked, by operation: the statuses answered and any the description does not document.',
    '',
    '| Operation | Statuses (count) | Undocumented |',
    '| --- | --- | --- |',
    ...summary.map((s) => `| ${s.op} | ${s.statuses} | ${s.undocumented} |`),
    '',
    '| Operation | Broken | Status |',
    '| --- | --- | --- |',
    ...refusals.map(
      (r) =>
        `| ${r.family} ${r.operationId} | ${r.broken.replace(/\|/g, '\\|')} | ${r.status}${r.documented ? '' : ' (undocumented)'} |`,
    ),
    '',
  ];
  writeFileSync(join(dir, 'contract-refusals.md'), lines.join('\n'));
  return summary
    .map((s) => `${s.op.padEnd(36)} ${s.statuses}${s.undocumented === '-' ? '' : `   UNDOCUMENTED: ${s.undocumented}`}`)
    .join('\n');
}

/** A concrete status to ask Prism for: the code itself, or N00 for a range `NXX`. */
export const concreteStatus = (key: string) => Number(key.replace(/XX$/i, '00'));

export function coverage(docs: { family: string; doc: OpenApiDocument }[], observations: Observation[]): CoverageRow[] {
  return docs.flatMap(({ family, doc }) =>
    listOperations(doc).map(({ operationId, method, path, operation }) => {
      const documented = Object.keys(operation.responses ?? {});
      const seen = observations.filter((o) => o.family === family && o.operationId === operationId);
      const exercised = [
        ...new Set(seen.map((o) => documentedKey(documented, o.status)).filter((k): k is string => k !== undefined)),
      ];
      return {
        family,
        operationId,
        method: method.toUpperCase(),
        path,
        documented,
        exercised: documented.filter((k) => exercised.includes(k)),
        missing: documented.filter((k) => !exercised.includes(k)),
        undocumented: [
          ...new Set(seen.filter((o) => documentedKey(documented, o.status) === undefined).map((o) => o.status)),
        ],
      };
    }),
  );
}

/** `unreachable`: cells no state of the target can reach (`family operationId status`), with the reason. */
export function writeCoverageReport(
  dir: string,
  rows: CoverageRow[],
  targets: { family: string; mode: string; url: string }[],
  unreachable = new Map<string, string>(),
): void {
  mkdirSync(dir, { recursive: true });
  const cells = rows.reduce((n, r) => n + r.documented.length, 0);
  const covered = rows.reduce((n, r) => n + r.exercised.length, 0);
  const unreachableCells = [...unreachable].map(([cell, reason]) => ({ cell, reason }));
  writeFileSync(
    join(dir, 'contract-coverage.json'),
    `${JSON.stringify({ targets, cells, covered, rows, ...(unreachable.size ? { unreachable: unreachableCells } : {}) }, null, 2)}\n`,
  );
  const lines = [
    '# Contract coverage',
    '',
    `Operations x documented statuses, computed from the bundled descriptions: **${covered} of ${cells}** cells exercised.`,
    '',
    ...targets.map((t) => `- ${t.family}: ${t.mode === 'mock' ? 'Prism mock' : 'real deployment'} at ${t.url}`),
    '',
    '| Family | Operation | Method and path | Documented | Exercised | Missing | Undocumented seen |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.family} | ${r.operationId} | \`${r.method} ${r.path}\` | ${r.documented.join(', ')} | ${r.exercised.join(', ') || '-'} | ${r.missing.join(', ') || '-'} | ${r.undocumented.join(', ') || '-'} |`,
    ),
    '',
    ...(unreachable.size
      ? [
          '## Unreachable',
          '',
          'Cells no state of this target can reach, and why:',
          '',
          ...unreachableCells.map((u) => `- ${u.cell}: ${u.reason}`),
          '',
        ]
      : []),
  ];
  writeFileSync(join(dir, 'contract-coverage.md'), lines.join('\n'));
}
