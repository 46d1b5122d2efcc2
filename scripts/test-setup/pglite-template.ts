// Vitest global setup: one freshly initialised PGlite data directory with the sandbox's tables, dumped to a temporary file, from which
// every in-memory sandbox of the run (in test workers and in the sandbox processes they start) begins instead
// of running initdb itself (src/sandbox/db.ts, PGLITE_TEMPLATE_ENV). Removed in teardown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGLITE_TEMPLATE_ENV } from '../../src/sandbox/db.js';
import { migrate } from '../../src/sandbox/resources/index.js';

export default async function setup(): Promise<() => void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = mkdtempSync(join(tmpdir(), 'ramp-pglite-template-'));
  // Vitest exits on SIGINT/SIGTERM without running teardowns; the folder goes with the process all the same.
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const pg = await PGlite.create();
  try {
    // With the sandbox's tables already made, a start's migration finds nothing to do.
    await migrate({ transaction: (work) => pg.transaction((tx) => work({ query: async <Row,>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows })) });
    const file = join(dir, 'fresh.tar');
    writeFileSync(file, Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
    process.env[PGLITE_TEMPLATE_ENV] = file;
  } finally {
    await pg.close();
  }
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    process.off('exit', remove);
    remove();
  };
}
