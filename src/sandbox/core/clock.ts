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

/** The service's `registerDate` format, `YYYY-MM-DD HH:MM:SS.ffffff` (UTC). */
export function registerDate(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}
