// `npm run compat:rules`: writes the compatibility guide's tables of the gate's rules and of where Redocly's diff
// disagrees (rules-doc.ts); `--check` fails when the guide is stale, as rules-doc.test.ts does in `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { GUIDE, guidePath, guideWithTables } from './rules-doc.js';

const current = readFileSync(guidePath, 'utf8');
const next = guideWithTables(current);
if (process.argv.includes('--check')) {
  if (current !== next) {
    console.error(`${GUIDE} is stale: run \`npm run compat:rules\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${GUIDE} is current.`);
} else {
  if (next !== current) writeFileSync(guidePath, next);
  console.log(next === current ? `${GUIDE} is current` : `Wrote ${GUIDE}`);
}
