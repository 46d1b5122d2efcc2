// Vitest setup file of the example consumers' tests (vitest.consumers.config.ts): the ramp-api modules a consumer
// imports are its real exports with the trace's wrapping (./usage-trace-wrap.ts). With USAGE_TRACE_DIR set, each
// test file writes the reads it traced there, as one JSON file, when it ends.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, vi } from 'vitest';
import { tracedReads } from './usage-trace.js';
import { traceModule } from './usage-trace-wrap.js';

vi.mock('ramp-api', async (original) => traceModule(await original()));
vi.mock('ramp-api/v1', async (original) => traceModule(await original()));
vi.mock('ramp-api/business', async (original) => traceModule(await original()));
vi.mock('ramp-api/webhooks', async (original) => traceModule(await original()));

afterAll(() => {
  const dir = process.env.USAGE_TRACE_DIR;
  if (dir) writeFileSync(join(dir, `${randomUUID()}.json`), JSON.stringify(tracedReads()));
});
