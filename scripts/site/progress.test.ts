// npm start's progress lines: each step as it begins, with the time since the start, then the end.
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

describe('the progress of a long start', () => {
  it('prints each step as it begins, with the seconds since the start, and the total at the end', () => {
    const lines: string[] = [];
    let clock = 1_000;
    const progress = createProgress(
      (line) => lines.push(line),
      () => clock,
    );
    progress.step('bundling the descriptions');
    clock += 2_340;
    progress.step('the v1 reference and its console');
    clock += 60_000;
    progress.done('Ready');
    expect(lines).toEqual([
      '  [0.0 s] bundling the descriptions',
      '  [2.3 s] the v1 reference and its console',
      'Ready in 62.3 s.',
    ]);
  });
});
