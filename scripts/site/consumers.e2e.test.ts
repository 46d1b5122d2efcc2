// The reference built with a usage file whose consumer and field names are markup, in Chromium: the operation's
// description shows them as text, the page holds none of the elements they spell (image, script, frame, refresh),
// no dialog opens and no request leaves for their addresses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { launchChromium } from '../../src/testing/chromium.js';
import { MARKUP_ATTACKS, payoutIdReader } from '../../src/testing/hostile-text.js';
import { readBundleJson } from '../../src/testing/repo.js';
import { withConsumers } from './consumers.js';
import { redocRoute } from './landing.js';
import { writeReference } from './site.js';
import { type StaticServer, serveFolder } from './static-server.js';

const dir = mkdtempSync(join(tmpdir(), 'consumers-page-'));
let server: StaticServer;
let browser: Browser;

// A consumer named with every attack, reading a field whose name closes its code span and opens them again.
const forged = payoutIdReader(`payout-service ${MARKUP_ATTACKS.join(' ')}`, 'src/a.ts:1');
forged.operations[0]!.responseFields.push({
  pointer: `/components/schemas/Payout/properties/a\`${MARKUP_ATTACKS.join(' ').replace(/\//g, '~1')}\`b`,
  sites: ['src/a.ts:2'],
});

beforeAll(async () => {
  const doc = readBundleJson<OpenApiDocument>('v1');
  writeReference('v1', withConsumers('v1', doc, [forged]), join(dir, 'v1.html'));
  server = await serveFolder(dir);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the reference naming a consumer whose names are markup', () => {
  it('shows them as text, with no element, dialog or request of theirs', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) requests.push(request.url());
    });
    await page.goto(`${server.url}/v1.html`, { waitUntil: 'networkidle' });
    const payout = readBundleJson<Record<string, any>>('v1').paths['/api/v1/admin/fiats/{user_id}/payout'].post;
    await page.evaluate(
      (hash) => {
        window.location.hash = hash;
      },
      redocRoute(payout.tags[0], 'createPayout'),
    );
    // The operation's heading, unless the page was taken away: what is asserted first is why.
    const summary = page.getByText(payout.summary, { exact: true }).first();
    await summary.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined);
    // Still on the page (no refresh took it away), with nothing sent where the names point and no dialog.
    const away = requests.filter((url) => url.includes('evil.example'));
    expect({ page: page.url().split('#')[0], away, dialogs }).toEqual({
      page: `${server.url}/v1.html`,
      away: [],
      dialogs: [],
    });
    expect(await summary.isVisible()).toBe(true);
    const injected = await page.evaluate(() => ({
      images: document.querySelectorAll('img[src="x"]').length,
      scripts: [...document.scripts].filter((s) => s.textContent?.trim() === 'alert(1)').length,
      frames: document.querySelectorAll('iframe[srcdoc]').length,
      refresh: document.querySelectorAll('meta[http-equiv]').length,
      links: document.querySelectorAll('a[href^="javascript:"]').length,
    }));
    expect(injected).toEqual({ images: 0, scripts: 0, frames: 0, refresh: 0, links: 0 });
    const consumers = page.getByText('Known consumers:').first();
    await consumers.waitFor({ state: 'visible', timeout: 5_000 });
    const paragraph = await consumers.locator('xpath=..').innerText();
    expect(paragraph).toContain(`payout-service ${MARKUP_ATTACKS.join(' ')}`);
    expect(paragraph).toContain(`a\`${MARKUP_ATTACKS.join(' ')}\`b`);
    await page.close();
  }, 60_000);
});
