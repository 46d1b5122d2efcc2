import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: the documentation site and the sandbox's pages in Debian's Chromium (never a downloaded browser).
export default defineConfig({
  test: {
    include: ['scripts/e2e/**/*.e2e.test.ts', 'src/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/test-setup/summary-reporter.ts'],
  },
});
