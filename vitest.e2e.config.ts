import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/lib/source-aliases.js';

// `npm run test:e2e`: the documentation site in Debian's Chromium (never a downloaded browser).
export default defineConfig({
  resolve: { alias: sourceAliases(import.meta.dirname) },
  test: {
    include: ['scripts/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/test-setup/summary-reporter.ts'],
  },
});
