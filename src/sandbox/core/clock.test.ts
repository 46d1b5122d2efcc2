// A pinned clock keeps one call's time whatever a concurrent sync does to the instance's clock.
import { describe, expect, it } from 'vitest';
import { createClock, pinnedClock } from './clock.js';

describe('pinnedClock', () => {
  it('keeps the offset it was given when a sync moves the shared clock back, and moves with real time', async () => {
    let real = 1_000_000;
    let stored = 0;
    const shared = createClock(
      () => real,
      60_000,
      async () => stored,
    );
    const pinned = pinnedClock(shared, 60_000);
    // Another call reads the stored offset before this call's advance to 60 s is committed.
    await shared.sync();
    expect(shared.now().getTime()).toBe(1_000_000);
    expect(pinned.now().getTime()).toBe(1_060_000);
    real += 5;
    expect(pinned.now().getTime()).toBe(1_060_005);
    stored = 120_000;
    await pinned.sync();
    expect([pinned.offsetMs, pinned.now().getTime()]).toEqual([60_000, 1_060_005]);
  });
});
