// The report of `npm run sandbox:load`: the figures per operation and the text it prints.

import { percentile } from './harness.js';
import type { createBalancer } from './load-cluster.js';
import type { Check, Evidence } from './load-evidence.js';

export interface OperationRow {
  operation: string;
  count: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  /** Answers the flow did not expect, and network errors on a live instance. */
  errors: number;
  /** Refusals the flow asked for (an overdraw, a payout racing others for the same balance). */
  refused: number;
  /** Requests lost with the killed instance (no answer): not errors of the sandbox. */
  lostToKill: number;
}

export interface LoadReport {
  checks: Check[];
  operations: OperationRow[];
  seconds: number;
  killedAtSeconds: number;
  inFlightAtKill: number;
  flows: { completed: number; interrupted: number };
  passed: boolean;
  evidence: Evidence;
}

/** Per operation: the count, requests per second, p50 and p99 latency, errors, refusals and calls lost to the kill. */
export function operationFigures(
  balancer: ReturnType<typeof createBalancer>,
  elapsed: number,
): LoadReport['operations'] {
  return [...balancer.tallies.entries()]
    .map(([operation, t]) => {
      const sorted = [...t.latencies].sort((a, b) => a - b);
      return {
        operation,
        count: t.latencies.length,
        perSecond: t.latencies.length / elapsed,
        p50ms: percentile(sorted, 0.5) || 0,
        p99ms: percentile(sorted, 0.99) || 0,
        errors: t.errors,
        refused: t.refused,
        lostToKill: t.lostToKill,
      };
    })
    .sort((a, b) => b.count - a.count);
}

export function formatReport(report: LoadReport): string {
  const lines: string[] = [];
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  lines.push(
    `${'operation'.padEnd(28)}${pad('count', 8)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('errors', 8)}${pad('refused', 9)}${pad('lost', 6)}`,
  );
  for (const r of report.operations) {
    lines.push(
      `${r.operation.padEnd(28)}${pad(r.count, 8)}${pad(r.perSecond.toFixed(1), 9)}${pad(r.p50ms.toFixed(1), 9)}${pad(r.p99ms.toFixed(1), 9)}${pad(r.errors, 8)}${pad(r.refused, 9)}${pad(r.lostToKill, 6)}`,
    );
  }
  const total = report.operations.reduce((a, r) => a + r.count, 0);
  lines.push(`${'all'.padEnd(28)}${pad(total, 8)}${pad((total / report.seconds).toFixed(1), 9)}`);
  lines.push('');
  lines.push(
    `Load: ${report.seconds.toFixed(1)} s, ${report.flows.completed} flows completed, ${report.flows.interrupted} interrupted (by the kill or an unexpected answer).`,
  );
  lines.push(
    `Kill: SIGKILL at ${report.killedAtSeconds.toFixed(1)} s; ${report.inFlightAtKill} requests in flight on the killed instance; ${report.operations.reduce((a, r) => a + r.lostToKill, 0)} requests got no answer from it ("lost" above, not counted as errors).`,
  );
  lines.push('');
  for (const c of report.checks) lines.push(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.figures}`);
  lines.push('');
  lines.push(report.passed ? 'All checks hold.' : `${report.checks.filter((c) => !c.pass).length} checks failed.`);
  return lines.join('\n');
}
