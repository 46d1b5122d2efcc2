// What `usage` reads from a path it is given (a `--check` file, a package folder's descriptions, a `--from` usage
// file): a regular file, bounded in size; a device that never ends (/dev/zero), a pipe that may never send, a
// folder, or a file too large is refused at once by name.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTarget } from './check.js';
import { CheckTargetError, UsageFormatError } from './errors.js';
import { readUsageFile } from './usage-file.js';

const dir = mkdtempSync(join(tmpdir(), 'usage-file-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const limits = { maxBytes: 1024, maxUnpackedBytes: 4096, maxEntryBytes: 1024 };

const fifo = () => {
  const path = join(dir, `fifo-${Math.random().toString(36).slice(2)}`);
  execFileSync('mkfifo', [path]);
  return path;
};

describe('--check FILE', () => {
  it.each([
    ['/dev/zero, which never ends', () => '/dev/zero', 'is not a regular file'],
    ['a pipe nobody writes to', fifo, 'is not a regular file'],
    [
      'a file over the bound',
      () => {
        const path = join(dir, 'big.json');
        writeFileSync(path, '');
        truncateSync(path, limits.maxBytes + 1);
        return path;
      },
      'is larger than',
    ],
  ])('refuses %s in one named error', async (_, make, message) => {
    const path = make();
    const read = readTarget(path, { limits });
    await expect(read).rejects.toThrow(CheckTargetError);
    await expect(readTarget(path, { limits })).rejects.toThrow(`${path} ${message}`);
  });

  it('refuses a package folder whose description is a folder, naming it', async () => {
    const pkg = join(dir, 'pkg');
    mkdirSync(join(pkg, 'dist', 'openapi', 'v1.json'), { recursive: true });
    writeFileSync(join(pkg, 'dist', 'openapi', 'business.json'), '{}');
    await expect(readTarget(pkg, { limits })).rejects.toThrow(CheckTargetError);
    await expect(readTarget(pkg, { limits })).rejects.toThrow(/v1\.json is not a regular file/);
  });
});

describe('--from FILE', () => {
  it.each([
    ['/dev/zero', () => '/dev/zero'],
    ['a pipe', fifo],
  ])('refuses %s in one named error', async (_, make) => {
    const path = make();
    await expect(readUsageFile(path)).rejects.toThrow(UsageFormatError);
    await expect(readUsageFile(path)).rejects.toThrow(`${path} is not a regular file`);
  });

  it('refuses a family name that is a path, before any file is read by it', async () => {
    const file = join(dir, 'evil-usage.json');
    const usage = {
      formatVersion: 2,
      consumer: 'evil',
      descriptions: { '../../../tmp/evil-bundle': `sha256:${'0'.repeat(64)}` },
      operations: [],
      events: [],
      otherFields: [],
    };
    writeFileSync(file, JSON.stringify(usage));
    await expect(readUsageFile(file)).rejects.toThrow(UsageFormatError);
    await expect(readUsageFile(file)).rejects.toThrow(/\/descriptions/);
  });
});
