// Writes src/client/generated/ (types, operation tables, constants, the sandbox's trigger values) from the
// descriptions, and the trigger table into the files that show it; `--check` fails if any is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBundle, repoRoot } from '../openapi/apis.js';
import { bundleAll } from '../openapi/bundle.js';
import {
  readTriggers,
  renderTableInto,
  TRIGGER_TABLE_FILES,
  triggersModule,
  triggersTable,
} from '../openapi/triggers.js';
import { renderGenerated } from './codegen.js';

const outDir = join(repoRoot, 'src', 'client', 'generated');
const files = await renderGenerated(bundleAll().map((api) => ({ api, doc: readBundle(api) })));
const triggers = readTriggers();
files.push({ name: 'triggers.ts', content: triggersModule(triggers) });
const tables = TRIGGER_TABLE_FILES.map((file) => {
  const current = readFileSync(join(repoRoot, file), 'utf8');
  return { file, current, next: renderTableInto(current, triggersTable(triggers), file) };
});

if (process.argv.includes('--check')) {
  const stale = files.filter((f) => {
    try {
      return readFileSync(join(outDir, f.name), 'utf8') !== f.content;
    } catch {
      return true;
    }
  });
  const staleTables = tables.filter((t) => t.next !== t.current).map((t) => t.file);
  if (stale.length || staleTables.length) {
    console.error(
      `Stale generated files: ${[...stale.map((f) => `src/client/generated/${f.name}`), ...staleTables].join(', ')}. Run \`npm run generate\`.`,
    );
    process.exit(1);
  }
  console.log('src/client/generated/ is up to date.');
} else {
  mkdirSync(join(outDir, 'samples'), { recursive: true });
  for (const file of files) writeFileSync(join(outDir, file.name), file.content);
  for (const t of tables) if (t.next !== t.current) writeFileSync(join(repoRoot, t.file), t.next);
  console.log(`Wrote ${files.map((f) => `src/client/generated/${f.name}`).join(', ')}`);
}
