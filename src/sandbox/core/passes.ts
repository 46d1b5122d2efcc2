// A pass that runs every `pollMs` on its own timer, and now on `kick`: one at a time (a kick while a pass runs
// gets that pass). A database that is down fails every pass: the first failure is logged, then the recovery,
// not each pass. The delivery worker and the scheduled outcomes run this way.
import type { SandboxLogger } from './logger.js';

export interface Passes<T> {
  /** Runs a pass now, or joins the one under way; after `stop`, resolves with `idle` at once. */
  kick(): Promise<T>;
  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void>;
}

export function runPasses<T>(
  pass: () => Promise<T>,
  options: {
    pollMs: number;
    logger: SandboxLogger;
    /** What a kick after `stop` resolves with. */
    idle: T;
    /** The log line of the first failure (given the error's message), and of the recovery. */
    failed: (message: string) => string;
    recovered: string;
    /** Run on every tick before the pass, even while one is under way. */
    onTick?: () => void;
  },
): Passes<T> {
  let stopped = false;
  let running: Promise<T> | null = null;
  let failing = false;

  function kick(): Promise<T> {
    if (stopped) return Promise.resolve(options.idle);
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    options.onTick?.();
    kick().then(
      () => {
        if (failing && !stopped) options.logger.error(options.recovered);
        failing = false;
      },
      (error: unknown) => {
        if (!stopped && !failing)
          options.logger.error(options.failed(error instanceof Error ? error.message : String(error)));
        failing = true;
      },
    );
  }, options.pollMs);
  timer.unref();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
