// Where the sandbox says what went wrong while it runs (an answer that breaks the description, a database outage,
// a delivery that failed, an internal error): standard error unless the caller gives its own logger (a test
// that provokes a fault on purpose captures what it provokes and asserts on it).

export interface SandboxLogger {
  /** One line, starting `[sandbox]`; never a secret. */
  error(line: string): void;
}

export function stderrLogger(): SandboxLogger {
  return { error: (line) => console.error(line) };
}
