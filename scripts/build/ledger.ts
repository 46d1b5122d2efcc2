// Writes docs/ledger.md, the ledger of the source document's statements (src/sandbox/fidelity/ledger.ts) as a
// table: each statement, where the source says it, and the test that proves it or why it cannot be shown.
// `npm run ledger`; `--check` fails when the page is stale (src/sandbox/fidelity/ledger.test.ts checks it too).
import { readFileSync, writeFileSync } from 'node:fs';
import { LEDGER_PAGE, ledgerPage, ledgerPagePath } from '../../src/sandbox/fidelity/page.js';

const next = ledgerPage();
let current = '';
try {
  current = readFileSync(ledgerPagePath(), 'utf8');
} catch {
  // missing counts as stale
}
if (process.argv.includes('--check')) {
  if (current !== next) {
    console.error(`${LEDGER_PAGE} is stale: run \`npm run ledger\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${LEDGER_PAGE} is current.`);
} else {
  if (next !== current) writeFileSync(ledgerPagePath(), next);
  console.log(next === current ? `${LEDGER_PAGE} is current` : `Wrote ${LEDGER_PAGE}`);
}
