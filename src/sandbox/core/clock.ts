// Sandbox time: the real clock plus an offset that `advanceClock` moves forward. Handlers read time only
// through this, never from Date.now(), so tests control expiry (and, later, delivery retries).
export interface Clock {
  now(): Date;
  /** Milliseconds sandbox time runs ahead of the real clock. */
  readonly offsetMs: number;
  setOffset(offsetMs: number): void;
  /** Reads the offset again from where it is kept (several instances on one database move one clock). */
  sync(): Promise<void>;
}

export function createClock(realNow: () => number = Date.now, offsetMs = 0, load?: () => Promise<number>): Clock {
  let offset = offsetMs;
  return {
    now: () => new Date(realNow() + offset),
    async sync() {
      if (load) offset = await load();
    },
    get offsetMs() {
      return offset;
    },
    setOffset(value) {
      offset = value;
    },
  };
}

/**
 * `clock` with its offset held at `offsetMs` for one call: on several instances a concurrent `sync` may read
 * the stored offset while this call's advance is not yet committed, and would move the shared clock back under
 * the call's later events. The pinned clock moves with the real clock only.
 */
export function pinnedClock(clock: Clock, offsetMs: number): Clock {
  let offset = offsetMs;
  return {
    now: () => new Date(clock.now().getTime() - clock.offsetMs + offset),
    get offsetMs() {
      return offset;
    },
    setOffset(value) {
      offset = value;
    },
    sync: async () => undefined,
  };
}

/** The service's `registerDate` format, `YYYY-MM-DD HH:MM:SS.ffffff` (UTC). */
export function registerDate(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}
