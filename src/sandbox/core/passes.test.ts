// Passes run one at a time, and a database outage is said twice: when the first pass fails, and when one works again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPasses } from './passes.js';

afterEach(() => vi.useRealTimers());

describe('runPasses', () => {
  it('joins a kick to the pass under way, logs the first failure and the recovery once, and stops', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const logger = { error: (line: string) => lines.push(line) };
    const outcomes = ['fail', 'fail', 'fail', 'ok', 'ok'];
    let started = 0;
    let release!: () => void;
    const pass = async () => {
      started++;
      if (started === 1) await new Promise<void>((resolve) => (release = resolve));
      if (outcomes.shift() === 'fail') throw new Error('connection refused');
      return started;
    };
    const passes = runPasses(pass, {
      pollMs: 10,
      logger,
      idle: 0,
      failed: (message) => `down: ${message}`,
      recovered: 'up again',
    });
    const first = passes.kick();
    expect(passes.kick()).toBe(first);
    release();
    await expect(first).rejects.toThrow('connection refused');
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBeGreaterThanOrEqual(5);
    expect(lines).toEqual(['down: connection refused', 'up again']);
    await passes.stop();
    const before = started;
    await vi.advanceTimersByTimeAsync(50);
    expect([started, await passes.kick()]).toEqual([before, 0]);
  });
});
