// src/client/generated/ is exactly what the generator makes from the current descriptions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allApiFamilies, readBundle, repoRoot } from '../openapi/apis.js';
import { renderGenerated } from './codegen.js';

describe('src/client/generated/', () => {
  it('is up to date with the descriptions (run `npm run generate` after changing them)', async () => {
    const files = await renderGenerated(allApiFamilies().map((api) => ({ api, doc: readBundle(api) })));
    expect(files.map((f) => f.name).sort()).toEqual([
      'business-meta.ts',
      'business.ts',
      'samples/business.ts',
      'samples/sandbox.ts',
      'samples/v1.ts',
      'sandbox-meta.ts',
      'sandbox.ts',
      'v1-meta.ts',
      'v1.ts',
    ]);
    for (const file of files) {
      expect(
        readFileSync(join(repoRoot, 'src', 'client', 'generated', file.name), 'utf8'),
        `src/client/generated/${file.name} is stale`,
      ).toBe(file.content);
    }
  });
});
