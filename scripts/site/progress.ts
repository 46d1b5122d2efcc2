// The progress of a long run, one line per step as it begins, with the time since the run began: what
// `npm start` is doing during its first minute (bundling, the references, the console, Prism, the sandbox).
// Lines, not a redrawn bar: they read the same in a terminal and in a CI log.

export interface Progress {
  /** Says that `what` begins: `  [12.3 s] the v1 reference and its console`. */
  step(what: string): void;
  /** Says the run is ready, and how long it took. */
  done(what: string): void;
}

export function createProgress(
  write: (line: string) => void = (line) => console.log(line),
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)} s`;
  return {
    step: (what) => write(`  [${elapsed()}] ${what}`),
    done: (what) => write(`${what} in ${elapsed()}.`),
  };
}
