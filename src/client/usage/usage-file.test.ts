// The usage file's schema is compiled once however many files are read: the gate over 3,000 usage files spent
// most of its time compiling it again for each.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USAGE_FORMAT_VERSION, type UsageFile, validateUsage } from './usage-file.js';

const usage = (consumer: string): UsageFile => ({
  formatVersion: USAGE_FORMAT_VERSION,
  consumer,
  descriptions: {},
  operations: [],
  events: [],
  otherFields: [],
});

describe('reading many usage files', () => {
  afterEach(() => vi.restoreAllMocks());

  it('compiles the schema at most once for all of them', async () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    for (let i = 0; i < 20; i++)
      await expect(validateUsage(usage(`team-${i}`), `usage-${i}.json`)).resolves.toBeTruthy();
    expect(compile.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('still refuses a file the schema does not take', async () => {
    await expect(validateUsage({ ...usage('bad'), operations: 'none' }, 'bad.json')).rejects.toThrow(
      /bad\.json does not match the usage file's schema: \/operations/,
    );
  });
});
