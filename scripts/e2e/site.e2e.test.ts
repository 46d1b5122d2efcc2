// The documentation site in a real browser (Debian's Chromium driven by playwright-core): every operation and
// event appears, every landing-page link resolves, no console errors, and no request leaves loopback.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFamilies, readBundle, repoRoot } from '../lib/apis.js';
import { listOperations } from '../lib/openapi-lookup.js';
import { redocRoute } from '../lib/landing.js';
import { buildSite, siteDir } from '../lib/site.js';
import { serveFolder, type StaticServer } from '../lib/static-server.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reports = join(repoRoot, 'reports');
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  buildSite();
  server = await serveFolder(siteDir);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  mkdirSync(reports, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Visit {
  page: Page;
  outside: string[];
  consoleErrors: string[];
}

/** Opens a page with every non-loopback request blocked and recorded, and console errors collected. */
async function visit(path: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const outside: string[] = [];
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${server.url}/${path}`, { waitUntil: 'networkidle' });
  return { page, outside, consoleErrors };
}

describe('landing page', () => {
  it('explains both families, addresses, auth, events and every inferred item, and every link resolves', async () => {
    const { page, outside, consoleErrors } = await visit('index.html');
    const text = await page.innerText('body');
    const families = apiFamilies().map((api) => ({ api, doc: readBundle(api) }));
    for (const { doc } of families) {
      expect(text).toContain(doc.info.title);
      for (const server of (doc.servers ?? []) as { url: string }[]) expect(text).toContain(server.url);
    }
    expect(text).toMatch(/5 minutes \(300 s\)/);
    expect(text).toMatch(/30000 ms/);
    for (const { doc } of families) for (const event of Object.keys(doc.webhooks ?? {})) expect(text).toContain(event);
    const inferredRows = await page.locator('table.inferred tbody tr').count();
    expect(inferredRows).toBeGreaterThan(50);

    const links = await page.$$eval('a[href]', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href')!));
    expect(links.length).toBeGreaterThan(20);
    for (const href of new Set(links)) {
      if (href.startsWith('#')) {
        expect(await page.locator(href).count(), `anchor ${href}`).toBe(1);
        continue;
      }
      const target = new URL(href, `${server.url}/index.html`);
      expect(target.origin, `link ${href} leaves the site`).toBe(server.url);
      const response = await page.request.get(target.href);
      expect(response.status(), `link ${href}`).toBe(200);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the landing page fits the window').toBeLessThanOrEqual(1360);
    await page.screenshot({ path: join(reports, 'site-index.png') });
    await page.locator('#inferred').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('inferred')!.scrollIntoView());
    await page.screenshot({ path: join(reports, 'site-index-inferred.png') });
    await page.evaluate(() => document.getElementById('events')!.scrollIntoView());
    await page.screenshot({ path: join(reports, 'site-index-events.png') });
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});


describe.each(apiFamilies().map((api) => [api.name, api] as const))('%s reference', (name, api) => {
  it('shows every operation and every event with its TypeScript sample, offline and without console errors', async () => {
    const { page, outside, consoleErrors } = await visit(`${name}.html`);
    const doc = readBundle(api);
    await page.waitForSelector('[data-section-id]', { timeout: 30_000 });
    const operations = [
      ...listOperations(doc).map((o) => ({ id: o.operationId, tag: o.operation.tags[0] as string, summary: o.operation.summary as string, sample: true })),
      ...Object.values((doc.webhooks ?? {}) as Record<string, any>).map((w) => ({ id: w.post.operationId, tag: w.post.tags[0], summary: w.post.summary, sample: false })),
    ];
    const missing: string[] = [];
    for (const operation of operations) {
      await page.evaluate((hash) => (window.location.hash = hash), redocRoute(operation.tag, operation.id));
      const shown = await page
        .getByText(operation.summary, { exact: true })
        .first()
        .waitFor({ state: 'visible', timeout: 5_000 })
        .then(() => true, () => false);
      if (!shown) missing.push(`${operation.id} ("${operation.summary}")`);
      if (shown && operation.sample) {
        const client = name === 'business' ? 'createBusinessClient' : 'createV1Client';
        // Highlighted code splits into spans: wait until the rendered text of a code block shows this call.
        const sampleShown = await page
          .waitForFunction(
            ([call, factory]) => [...document.querySelectorAll('pre')].some((pre) => pre.innerText.includes(call!) && pre.innerText.includes(factory!)),
            [`.${operation.id}(`, client],
            { timeout: 5_000 },
          )
          .then(() => true, () => false);
        if (!sampleShown) missing.push(`${operation.id} sample`);
      }
    }
    expect(missing, `not shown on ${name}.html`).toEqual([]);
    await page.evaluate((hash) => (window.location.hash = hash), redocRoute(operations[0]!.tag, operations[0]!.id));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(reports, `site-${name}.png`) });
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
