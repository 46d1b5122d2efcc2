// The documentation site in a real browser (Debian's Chromium driven by playwright-core): every operation and
// event appears, every landing-page link resolves, each API is listed once with its own client and security,
// the inferred table is whole, every sample uses the README's variables and ports, the sandbox serves its
// rendered reference, no console errors, and no request leaves loopback. The guides: each reached from the
// landing page by its link's role and name, with the site's navigation and search, and no serious or critical
// axe-core violation.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, resolveRef } from '../../src/client/lookup/index.js';
import { launchChromium } from '../../src/testing/chromium.js';
import { useSandbox } from '../../src/testing/sandbox-fixture.js';
import { allApiFamilies, apiFamilies, readBundle, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { collectInferred } from '../openapi/inferred.js';
import { readGuides } from './guides.js';
import { redocRoute } from './landing.js';
import { unlikeReadme } from './readme-agreement.js';
import { clientOf, sourceModule } from './samples.js';
import { buildSite, siteDir } from './site.js';
import { type StaticServer, serveFolder } from './static-server.js';

const reports = join(repoRoot, 'reports');
let server: StaticServer;
let browser: Browser;
const sandbox = useSandbox();

beforeAll(async () => {
  buildSite();
  server = await serveFolder(siteDir);
  browser = await launchChromium();
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

/** Opens a page (of the site, or a full loopback URL) with every non-loopback request blocked and recorded, and console errors collected. */
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
  await page.goto(path.startsWith('http://') ? path : `${server.url}/${path}`, { waitUntil: 'networkidle' });
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

    const links = await page.$$eval('a[href]', (anchors) =>
      anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href')!),
    );
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
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      'the landing page fits the window',
    ).toBeLessThanOrEqual(1360);
    await page.screenshot({ path: join(reports, 'site-index.png') });
    await page.locator('#inferred').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('inferred')!.scrollIntoView());
    await page.screenshot({ path: join(reports, 'site-index-inferred.png') });
    await page.evaluate(() => document.getElementById('events')!.scrollIntoView());
    await page.screenshot({ path: join(reports, 'site-index-events.png') });
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('lists each API once, with its own client and its own security', async () => {
    const { page } = await visit('index.html');
    // Each heading of the authentication section with the text up to the next heading.
    const blocks = await page.$$eval('#auth h3', (headings) =>
      headings.map((heading) => {
        let text = '';
        for (let node = heading.nextElementSibling; node && node.tagName !== 'H3'; node = node.nextElementSibling)
          text += `${(node as HTMLElement).innerText}\n`;
        return { title: (heading as HTMLElement).innerText.trim(), text };
      }),
    );
    const cards = await page.$$eval('#families .card h3', (headings) =>
      headings.map((h) => (h as HTMLElement).innerText.trim()),
    );
    const problems: string[] = [];
    for (const api of allApiFamilies()) {
      const doc = readBundle(api);
      const title = doc.info.title;
      if (cards.filter((c) => c === title).length !== 1)
        problems.push(`${title}: ${cards.filter((c) => c === title).length} cards`);
      const mine = blocks.filter((b) => b.title === title);
      if (mine.length !== 1) problems.push(`${title}: listed ${mine.length} times under Authentication`);
      for (const { text } of mine) {
        // Its client: the named export of the named entry point, a client with a method for every operation of this API.
        const [, create, from] = /Client: (\w+) from ([\w/@.-]+)\./.exec(text) ?? [];
        if (!create || !from) {
          problems.push(`${title}: no "Client: ... from ..." line`);
        } else {
          const entry = (await import(sourceModule(from))) as Record<string, unknown>;
          if (typeof entry[create] !== 'function') problems.push(`${title}: ${from} exports no ${create}`);
          else {
            const made = (entry[create] as (options: { baseUrl: string }) => Record<string, unknown>)({
              baseUrl: 'http://127.0.0.1:9',
            });
            const lacking = listOperations(doc)
              .map((o) => o.operationId)
              .filter((id) => typeof made[id] !== 'function');
            if (lacking.length) problems.push(`${title}: ${create} from ${from} cannot call ${lacking.join(', ')}`);
          }
        }
        // Its security: each of its schemes, and exactly the operations it calls without a token.
        for (const scheme of Object.keys(doc.components?.securitySchemes ?? {}))
          if (!text.includes(scheme)) problems.push(`${title}: scheme ${scheme} not named`);
        const publicOps = listOperations(doc)
          .filter((o) => o.operation.security?.length === 0)
          .map((o) => o.operationId);
        const called = `Called without a token: ${publicOps.join(', ') || 'none'}.`;
        if (!text.includes(called)) problems.push(`${title}: no "${called}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows the whole of every inferred item: what was inferred and why, no sentence cut off', async () => {
    const { page } = await visit('index.html');
    const rows = await page.$$eval('table.inferred > tbody > tr', (trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll(':scope > td')].map((td) => (td as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
      ),
    );
    const endsInTable = await page.$$eval('table.inferred > tbody > tr > td:nth-child(4)', (tds) =>
      tds.map((td) => td.lastElementChild?.tagName === 'TABLE'),
    );
    // A reason ends with a full stop (or a closing parenthesis), or with the table its last sentence introduces.
    const cut = rows
      .filter((cells, i) => !/[.)]$/.test(cells[3] ?? '') && !endsInTable[i])
      .map((cells) => `${cells[1]}: ...${(cells[3] ?? '').slice(-60)}`);
    expect(cut, 'why-cells that stop mid-sentence').toEqual([]);
    // Where an "Inferred:" sentence introduces a table, every row of that table is in the item's row.
    let tables = 0;
    for (const api of allApiFamilies()) {
      const doc = readBundle(api);
      for (const item of collectInferred(api.name, doc)) {
        const node = resolveRef<{ description?: string; 'x-inferred': string[] }>(doc, { $ref: item.pointer });
        const after = String(node.description ?? '').split(/(?:^|\s)Inferred:/)[1] ?? '';
        const tableRows = after
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line));
        const row = rows.find((cells) => cells[0] === api.name && cells[1] === item.where);
        expect(row, `${api.name} ${item.where} in the table`).toBeDefined();
        expect(row![2], `${api.name} ${item.where}: what was inferred`).toBe(node['x-inferred'].join(', '));
        if (tableRows.length) tables++;
        for (const line of tableRows) {
          const cells = line
            .split('|')
            .slice(1, -1)
            .map((c) => c.replace(/`/g, '').trim());
          expect(row![3], `${api.name} ${item.where}: the row "${line}"`).toContain(cells.join(' '));
        }
      }
    }
    expect(tables, 'inferred items whose reason carries a table').toBeGreaterThan(0);
  });
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeResults: Record<string, { id: string; impact: string | null; nodes: number }[]> = {};

/** axe-core on the page as it is now: every violation is recorded; serious and critical ones are returned. */
async function seriousAxeViolations(page: Page, name: string): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v: { id: string; impact: string | null; nodes: { target: unknown }[] }) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  axeResults[name] = violations.map(({ id, impact, nodes }) => ({ id, impact, nodes }));
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) at ${v.targets.join(' ')}`);
}

describe('the guides', () => {
  const guides = readGuides();
  afterAll(() => writeFileSync(join(reports, 'site-guides-axe.json'), `${JSON.stringify(axeResults, null, 2)}\n`));

  it('has guides to check', () => {
    expect(guides.length).toBeGreaterThanOrEqual(8);
  });

  it.each(guides.map((g) => [g.title, g] as const))(
    '"%s" is reached from the landing page by its link, with the navigation of the references',
    async (title, guide) => {
      const { page, outside, consoleErrors } = await visit('index.html');
      await page.getByRole('link', { name: title, exact: true }).click();
      await page.waitForURL(`**/guides/${guide.slug}.html`);
      await expect(page.getByRole('heading', { level: 1, name: title, exact: true }).isVisible()).resolves.toBe(true);
      // The navigation: every guide and the three references, by name; the current guide marked as such.
      const nav = page.getByRole('navigation', { name: 'Guides and references' });
      for (const other of guides)
        expect(await nav.getByRole('link', { name: other.title, exact: true }).count(), other.title).toBe(1);
      expect(await nav.locator('a[aria-current="page"]').innerText()).toBe(title);
      for (const api of allApiFamilies()) {
        const name = `${readBundle(api).info.title} reference`;
        const href = await nav.getByRole('link', { name, exact: true }).getAttribute('href');
        expect(href, name).toBe(`../${api.name}.html`);
      }
      // Every link of the page goes to a page of the site that answers, or to an anchor of the page it names.
      const links = await page.$$eval('a[href]', (anchors) =>
        anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href')!),
      );
      for (const href of new Set(links)) {
        if (/^https?:/.test(href)) continue;
        const target = new URL(href, page.url());
        const response = await page.request.get(target.href);
        expect(response.status(), `${guide.slug}: link ${href}`).toBe(200);
        if (target.hash) {
          const html = await response.text();
          expect(html, `${guide.slug}: anchor of ${href}`).toContain(
            `id="${decodeURIComponent(target.hash.slice(1))}"`,
          );
        }
      }
      expect(await seriousAxeViolations(page, guide.slug)).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${guide.slug} fits the window`,
      ).toBeLessThanOrEqual(1360);
      await page.screenshot({ path: join(reports, `site-guide-${guide.slug}.png`) });
      expect(outside).toEqual([]);
      expect(consoleErrors).toEqual([]);
    },
  );

  it('finds a section by its words, from the landing page and from a guide, and leads to it', async () => {
    const { page, outside, consoleErrors } = await visit('index.html');
    expect(await seriousAxeViolations(page, 'landing page')).toEqual([]);
    await page.getByRole('searchbox', { name: 'Search the guides' }).fill('advanceClock redeliver');
    const result = page.getByRole('link', { name: /Events and webhook delivery/ });
    await result.first().waitFor({ state: 'visible', timeout: 5_000 });
    await result.first().click();
    await page.waitForURL('**/guides/events-and-webhooks.html#events-and-webhook-delivery');
    await page.getByRole('searchbox', { name: 'Search the guides' }).fill('CONTRACT_PARAMS');
    await page
      .getByRole('link', { name: /Against a real deployment/ })
      .first()
      .click();
    await page.waitForURL('**/guides/real-deployment.html#against-a-real-deployment');
    await page.getByRole('searchbox', { name: 'Search the guides' }).fill('no such words anywhere');
    await expect(page.getByRole('status').first().innerText()).resolves.toBe('No section holds all of these words');
    expect(await seriousAxeViolations(page, 'search')).toEqual([]);
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe('the sandbox at /sandbox/docs', () => {
  it("serves the control API's rendered reference, offline, with its samples", async () => {
    const { page, outside, consoleErrors } = await visit(sandbox!.docsUrl);
    const doc = readBundle(allApiFamilies().find((api) => api.name === SANDBOX_FAMILY)!);
    const rendered = await page.waitForSelector('[data-section-id]', { timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    expect(rendered, 'a Redoc page').toBe(true);
    const text = await page.innerText('body');
    expect(text).toContain(doc.info.title);
    // Markdown in the description is rendered, not shown as it is written.
    expect(text).not.toMatch(/^#+ /m);
    expect(text).not.toContain('**');
    const [first] = listOperations(doc);
    await page.evaluate(
      (hash) => (window.location.hash = hash),
      redocRoute(first!.operation.tags[0], first!.operationId),
    );
    const sample = await page
      .waitForFunction(
        (call) => [...document.querySelectorAll('pre')].find((pre) => pre.innerText.includes(call))?.innerText,
        `.${first!.operationId}(`,
        { timeout: 5_000 },
      )
      .then(
        (handle) => handle.jsonValue() as Promise<string>,
        () => '',
      );
    expect(sample, `the sample of ${first!.operationId}`).toContain(clientOf(SANDBOX_FAMILY).create);
    await page.screenshot({ path: join(reports, 'sandbox-docs.png') });
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe.each(allApiFamilies().map((api) => [api.name, api] as const))('%s reference', (name, api) => {
  it('shows every operation and every event with its TypeScript sample, offline and without console errors', async () => {
    const { page, outside, consoleErrors } = await visit(`${name}.html`);
    const doc = readBundle(api);
    await page.waitForSelector('[data-section-id]', { timeout: 30_000 });
    const operations = [
      ...listOperations(doc).map((o) => ({
        id: o.operationId,
        tag: o.operation.tags[0] as string,
        summary: o.operation.summary as string,
        sample: true,
      })),
      ...Object.values((doc.webhooks ?? {}) as Record<string, any>).map((w) => ({
        id: w.post.operationId,
        tag: w.post.tags[0],
        summary: w.post.summary,
        sample: false,
      })),
    ];
    const missing: string[] = [];
    const unlike = new Set<string>();
    for (const operation of operations) {
      await page.evaluate((hash) => (window.location.hash = hash), redocRoute(operation.tag, operation.id));
      const shown = await page
        .getByText(operation.summary, { exact: true })
        .first()
        .waitFor({ state: 'visible', timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
      if (!shown) missing.push(`${operation.id} ("${operation.summary}")`);
      if (shown && operation.sample) {
        const client = clientOf(name).create;
        // Highlighted code splits into spans: wait until the rendered text of a code block shows this call.
        const sample = await page
          .waitForFunction(
            ([call, factory]) =>
              [...document.querySelectorAll('pre')].find(
                (pre) => pre.innerText.includes(call!) && pre.innerText.includes(factory!),
              )?.innerText,
            [`.${operation.id}(`, client],
            { timeout: 5_000 },
          )
          .then(
            (handle) => handle.jsonValue() as Promise<string>,
            () => undefined,
          );
        if (!sample) missing.push(`${operation.id} sample`);
        else for (const problem of unlikeReadme(sample)) unlike.add(problem);
      }
    }
    expect(missing, `not shown on ${name}.html`).toEqual([]);
    expect([...unlike], `samples on ${name}.html that use other names or ports than the README`).toEqual([]);
    await page.evaluate((hash) => (window.location.hash = hash), redocRoute(operations[0]!.tag, operations[0]!.id));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(reports, `site-${name}.png`) });
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
