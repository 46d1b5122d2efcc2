// A sandbox logger that keeps what it is told instead of printing it: a test that provokes a fault on purpose
// asserts on the lines it provoked, and npm test's output stays free of them.
import type { SandboxLogger } from '../sandbox/core/logger.js';

export interface CapturingLogger extends SandboxLogger {
  lines: string[];
}

export function captureLogger(): CapturingLogger {
  const lines: string[] = [];
  return { lines, error: (line) => void lines.push(line) };
}
