// The sandbox's pages, served from the package: the dashboard at `/`, the KYC page behind `generateKycUrl`'s link
// (`/sandbox/kyc/{sessionId}`), the checkout page behind an on-ramp's `checkoutUrl` (`/sandbox/checkout/{checkoutId}`),
// and their assets (`/sandbox/assets/...`). The pages are built from src/sandbox/pages/ by
// scripts/build/build-sandbox-pages.ts into src/sandbox/dist/pages/ (the package's dist/pages/); each is a client of the
// control API and nothing else.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxDistDir } from '../core/dist-dir.js';

/** Where the built pages are: dist/pages/ of this package. */
function pagesDir(): string {
  return join(sandboxDistDir(), 'pages');
}

export interface PageAnswer {
  status: number;
  type: string;
  body: Buffer | string;
  headers: Record<string, string>;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Every page answer: nothing but this origin may be loaded or called (the pages work offline and name no other
 * host), no page may be framed, and no page sends a Referer (a KYC or checkout link is a credential, and the
 * checkout page sends the user on to the on-ramp's `redirectUrl`).
 */
const HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

const PAGE_ROUTES: [RegExp, string][] = [
  [/^\/$/, 'dashboard.html'],
  [/^\/sandbox\/kyc\/[^/]+$/, 'kyc.html'],
  [/^\/sandbox\/checkout\/[^/]+$/, 'checkout.html'],
];
const ASSET = /^\/sandbox\/assets\/([a-z0-9-]+\.(?:js|css))$/;

/**
 * The page server: the built files are read once, at start. A GET for a page or asset path gets its answer;
 * any other request gets undefined (the API's routes answer it). Built pages that are missing (a checkout that
 * never ran the build) answer 404 saying how to build them.
 */
export function createPageServer(dir = pagesDir()): (method: string, pathname: string) => PageAnswer | undefined {
  const files = new Map<string, Buffer>();
  if (existsSync(dir))
    for (const name of readdirSync(dir))
      if (/^[a-z0-9-]+\.(?:html|js|css)$/.test(name)) files.set(name, readFileSync(join(dir, name)));
  return (method, pathname) => {
    if (method !== 'get') return undefined;
    const name = PAGE_ROUTES.find(([pattern]) => pattern.test(pathname))?.[1] ?? ASSET.exec(pathname)?.[1];
    if (!name) return undefined;
    const body = files.get(name);
    if (!body) {
      return name.endsWith('.html')
        ? {
            status: 404,
            type: 'text/plain',
            body: `The sandbox's pages are not built (no ${name} in ${dir}): run \`npm run build:pages\`.`,
            headers: HEADERS,
          }
        : { status: 404, type: 'text/plain', body: `No asset ${name}.`, headers: HEADERS };
    }
    return { status: 200, type: TYPES[name.slice(name.lastIndexOf('.'))]!, body, headers: HEADERS };
  };
}
