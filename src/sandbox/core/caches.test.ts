// Every cache of a running sandbox is bounded in bytes as well as in entries: the token cache, whatever the
// size of what it holds, and the measure the store's select cache counts its results with.
import { describe, expect, it } from 'vitest';
import { approximateBytes } from '../store/db.js';
import { createTokenCache } from './instance.js';

describe('caches bounded in bytes', () => {
  it('keeps the token cache within its bytes, however long the tenant names it holds', () => {
    const cache = createTokenCache(10_000, 1024 * 1024);
    for (let i = 0; i < 5_000; i++) {
      cache.set(`token-${i}`, {
        tenant: { id: `tenant-${i}`, name: 'n'.repeat(2_000) },
        family: 'business',
        expiresAt: Number.POSITIVE_INFINITY,
        cachedAt: 0,
      });
      expect(cache.bytes).toBeLessThanOrEqual(1024 * 1024);
    }
    expect(cache.size).toBeGreaterThan(0);
    cache.set('huge', {
      tenant: { id: 't', name: 'n'.repeat(1024 * 1024) },
      family: 'v1',
      expiresAt: 0,
      cachedAt: 0,
    });
    expect(cache.get('huge')).toBeUndefined();
  });

  it('counts text at 2 bytes a character, and stops counting past its limit', () => {
    const rows = [{ payload: { note: 'x'.repeat(1_000_000) } }, { payload: { note: 'y'.repeat(1_000_000) } }];
    expect(approximateBytes(rows)).toBeGreaterThan(4_000_000);
    expect(approximateBytes(rows, 1_000)).toBeLessThan(2_100_000);
  });
});
