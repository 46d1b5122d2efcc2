// A method a path does not take answers 405 with `Allow` naming the methods it does take (RFC 9110, 15.5.6), on
// every path of the three bundles (paths and methods read from them, not listed here).

import { listOperations } from 'ramp-api/lookup';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { REFUSALS } from '../core/refusals.js';
import { SANDBOX_FAMILIES } from '../server.js';
import { readBundleFile } from './document.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Each path of the bundles, its parameters filled in, with the methods its operations take. */
const paths = new Map<string, Set<string>>();
for (const family of SANDBOX_FAMILIES)
  for (const entry of listOperations(readBundleFile(family))) {
    const concrete = entry.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
    paths.set(concrete, (paths.get(concrete) ?? new Set()).add(entry.method));
  }

const sandbox = useSandbox();

describe('405 Method Not Allowed', () => {
  it('is derived from the bundles: every path has a method it does not take', () => {
    expect(paths.size).toBeGreaterThan(40);
    for (const [path, methods] of paths)
      expect(
        METHODS.some((m) => !methods.has(m)),
        path,
      ).toBe(true);
  });

  it("carries Allow with the path's methods on every path of the three APIs", async () => {
    const wrong: string[] = [];
    for (const [path, methods] of paths) {
      const method = METHODS.find((m) => !methods.has(m))!;
      const response = await fetch(`${sandbox.url}${path}`, { method: method.toUpperCase() });
      const body = (await response.json()) as { error?: string };
      const expected = [...methods].map((m) => m.toUpperCase()).sort();
      const allow = (response.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      if (response.status !== 405 || body.error !== REFUSALS.methodNotAllowed.code || allow.join() !== expected.join())
        wrong.push(
          `${method.toUpperCase()} ${path}: ${response.status} ${body.error}, Allow: ${response.headers.get('allow')} (expected ${expected.join(', ')})`,
        );
    }
    expect(wrong).toEqual([]);
  });
});
