// Writes src/client/generated/ (types, operation tables, constants) from the descriptions; `--check` fails if it is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBundle, repoRoot } from './lib/apis.js';
import { bundleAll } from './lib/bundle.js';
import { renderGenerated } from './lib/codegen.js';

const outDir = join(repoRoot, 'src', 'client', 'generated');
const files = await renderGenerated(bundleAll().map((api) => ({ api, doc: readBundle(api) })));

if (process.argv.includes('--check')) {
  const stale = files.filter((f) => {
    try {
      return readFileSync(join(outDir, f.name), 'utf8') !== f.content;
    } catch {
      return true;
    }
  });
  if (stale.length) {
    console.error(
      `Stale generated files: ${stale.map((f) => `src/client/generated/${f.name}`).join(', ')}. Run \`npm run generate\`.`,
    );
    process.exit(1);
  }
  console.log('src/client/generated/ is up to date.');
} else {
  mkdirSync(join(outDir, 'samples'), { recursive: true });
  for (const file of files) writeFileSync(join(outDir, file.name), file.content);
  console.log(`Wrote ${files.map((f) => `src/client/generated/${f.name}`).join(', ')}`);
}
