// One call's AbortSignal (its deadline and the caller's signal combined), and waits that end when it aborts.

/**
 * Node warns past 10 listeners on one signal. A call's own listeners are few (a fetch's, a wait for the token,
 * one per retry wait), so the limit is lifted only for a call allowed many attempts. Elsewhere (browsers) there
 * is no warning to lift.
 */
const setMaxListeners = (
  globalThis as {
    process?: { getBuiltinModule?(id: string): { setMaxListeners?(n: number, ...targets: EventTarget[]): void } };
  }
).process?.getBuiltinModule?.('node:events')?.setMaxListeners;
/** Not 0 ("unlimited"): Node's getMaxListeners throws on a target whose limit is 0. */
const LISTENER_LIMIT = 2 ** 30;
/** Attempts whose listeners stay under Node's default limit of 10: two each, and the token wait. */
const MANY_ATTEMPTS = 4;

/** A call's signal, and the timer that aborts it at the call's deadline. */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Starts one call's deadline: its signal aborts `timeoutMs` from now, or when `callerSignal` aborts, whichever
 * comes first. The call clears `timer` when it ends (or unrefs it when its answer is still being read).
 * `attempts` is the most the call may make.
 */
export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined, attempts: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
  // Each attempt may leave a listener (undici's stays until its request is collected) and each wait one more.
  if (attempts > MANY_ATTEMPTS) setMaxListeners?.(LISTENER_LIMIT, signal);
  return { signal, timer };
}

/**
 * Rejects with `signal`'s reason once it aborts. The signal is one call's and lives no longer than the call,
 * so the listener is left to go with it.
 */
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) =>
    signal.aborted
      ? reject(signal.reason)
      : signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );

/** `promise`, unless `signal` aborts first (then its reason). */
export const within = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> =>
  Promise.race([promise, aborted(signal)]);

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return within(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() =>
    clearTimeout(timer),
  );
}
