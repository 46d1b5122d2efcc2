// `npm run build`: everything the two packages ship, from the current sources (scripts/build/build-all.ts). `npm run
// pack` and each package's prepack run it.
import { relative } from 'node:path';
import { SNAPSHOT_FILE } from '../../src/sandbox/store/snapshot.js';
import { repoRoot } from '../openapi/apis.js';
import { buildAll } from './build-all.js';

const started = performance.now();
const { snapshotWritten } = await buildAll();
console.log(
  `Built dist/openapi/, src/client/dist/ and src/sandbox/dist/ (PGlite snapshot ${relative(repoRoot, `src/sandbox/dist/${SNAPSHOT_FILE}`)} ${snapshotWritten ? 'made' : 'current, kept'}) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
