// The ledger's committed page, docs/ledger.md: where it lives and what it holds (rendered from ./ledger.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderLedger } from './check.js';
import { ledger } from './ledger.js';

/** The repository's root, from this file's place in it. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The page, relative to the repository root. */
export const LEDGER_PAGE = 'docs/ledger.md';

/** How the page names the source document (as the README does). */
export const SOURCE_PATH = '`../shared/api-source/service-interface.md`';

export const ledgerPage = () => renderLedger(ledger, { source: SOURCE_PATH });

export const ledgerPagePath = () => join(REPO_ROOT, LEDGER_PAGE);
