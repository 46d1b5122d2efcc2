// A full --data disk, as callers and the operator see it: the 503 `storage_full` says the disk is full without
// the server's path (a tenant, or a caller with no token, has no business knowing it); the operator's log says
// where, once per time the disk fills. The file system's answer is given by the test (no disk is filled here:
// src/sandbox/store/full-disk.interrupt.test.ts fills a real one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../../testing/capture-logger.js';
import { Refusal } from '../core/refusals.js';
import { createSpaceCheck, RESERVED_DISK_BYTES, storageFull } from './disk-space.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-secret-place-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a full --data disk', () => {
  it("is refused with storage_full, whose message names no path of the server's", () => {
    const refusal = storageFull();
    expect(refusal).toMatchObject({ status: 503, code: 'storage_full', headers: { 'retry-after': '30' } });
    expect(refusal.message).toMatch(/full.*the operator's log names the folder/i);
    expect(refusal.message).not.toMatch(/\//);
  });

  it("is told to the operator's log with the folder, once each time the disk fills", async () => {
    let free = 0;
    const looks = { statfs: async () => ({ bavail: free, bsize: 1 }) };
    const logger = captureLogger();
    const check = createSpaceCheck(dir, logger, { ...looks, lookMs: 0 });
    const refused = await check().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).message).not.toContain(dir);
    await check().catch(() => undefined);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toContain(dir);
    expect(logger.lines[0]).toMatch(/^\[sandbox\] /);
    free = RESERVED_DISK_BYTES;
    await check();
    free = 0;
    await check().catch(() => undefined);
    expect(logger.lines).toHaveLength(2);
  });
});
