// `npm run size`: how much `createBusinessClient` from the root entry adds to a consumer's bundle, against the
// budget in scripts/bench/size-budget.json. `-- --write` records the current size as the budget (after it shrinks).
import { BUDGETED_IMPORT, bundleSize, readBudget, writeBudget } from './bundle-size.js';

const size = await bundleSize(BUDGETED_IMPORT);
const budget = readBudget().gzippedBytes;
console.log(
  `createBusinessClient from 'ramp-api': ${size.minified} B minified, ${size.gzipped} B gzipped (budget ${budget} B)`,
);
if (process.argv.includes('--write')) {
  writeBudget(size.gzipped);
  console.log(`Budget set to ${size.gzipped} B.`);
} else if (size.gzipped > budget) {
  console.error(`Over budget by ${size.gzipped - budget} B.`);
  process.exitCode = 1;
}
