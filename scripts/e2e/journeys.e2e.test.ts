// Journeys in Debian's Chromium, over the site `npm start` serves, by role and accessible name: the consoles of
// operations whose bodies carry values that must be unique, sent twice in a row on their default inputs.
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allApiFamilies, readBundle } from '../lib/apis.js';
import { redocRoute } from '../lib/landing.js';
import { listOperations } from '../lib/openapi-lookup.js';
import { until } from '../../src/testing/until.js';
import { type ServedSite, startServedSite } from './served-site.js';

let served: ServedSite;
beforeAll(async () => {
  served = await startServedSite();
}, 150_000);
afterAll(async () => {
  await served?.stop();
}, 30_000);

/** Opens the family's reference at the operation and its console; returns the console. */
async function openConsole(family: string, operationId: string): Promise<Locator> {
  const { page, site } = served;
  const doc = readBundle(allApiFamilies().find((a) => a.name === family)!);
  const entry = listOperations(doc).find((e) => e.operationId === operationId)!;
  const target = `${site}/${family}.html`;
  if (!page.url().startsWith(target)) await page.goto(target, { waitUntil: 'networkidle' });
  await page.evaluate(
    (route) => {
      window.location.hash = route;
    },
    redocRoute(String(entry.operation.tags?.[0]), entry.operationId),
  );
  const console_ = page.getByRole('complementary', { name: `Console: ${operationId}` });
  if (!(await console_.isVisible())) {
    const close = page.getByRole('button', { name: 'Close the console' });
    if (await close.isVisible()) await close.click();
    await page.getByRole('button', { name: `Try ${operationId} in the console` }).click();
  }
  await console_.waitFor();
  return console_;
}

/** Sends and returns the status line and the verdict. */
async function send(console_: Locator): Promise<{ status: number; verdict: string; body: string }> {
  const answer = console_.getByRole('region', { name: 'Answer' });
  const before = (await answer.count()) ? await answer.innerText() : '';
  await console_.getByRole('button', { name: /^Send/ }).click();
  await until(
    async () =>
      (await answer.count()) > 0 &&
      !(await console_.getByRole('button', { name: 'Sending...' }).count()) &&
      (await answer.innerText()) !== before &&
      ((await answer.getByRole('status').count()) > 0 || (await answer.getByRole('alert').count()) > 0),
    'an answer',
    20_000,
  );
  if (await answer.getByRole('alert').count()) throw new Error(`No answer: ${await answer.innerText()}`);
  const text = await answer.innerText();
  return {
    status: Number(/HTTP (\d{3})/.exec(text)![1]),
    verdict: await answer.getByRole('status').innerText(),
    body: await answer.getByRole('region', { name: 'Response body' }).innerText(),
  };
}

describe('consoles of operations whose bodies must be unique', () => {
  it('makes a tenant in one click', async () => {
    const console_ = await openConsole('v1', 'registerUser');
    await console_.getByRole('radio', { name: /The local sandbox/ }).check();
    await console_.getByRole('button', { name: 'Make a tenant' }).click();
    await expect
      .poll(() => console_.getByRole('status', { name: 'Tenant' }).innerText())
      .toMatch(/^Tenant .* clientId/);
  });

  for (const operationId of ['registerUser', 'createIntegrationEndpoint']) {
    it(`${operationId}: sent twice in a row on its default inputs, succeeds both times`, async () => {
      const console_ = await openConsole('v1', operationId);
      await console_.getByRole('radio', { name: /The local sandbox/ }).check();
      for (const time of ['first', 'second']) {
        const { status, verdict, body } = await send(console_);
        expect(status, `${operationId}, ${time} send: ${body}`).toBeLessThan(300);
        expect(verdict).toMatch(/^Checked: the answer matches the documented 20\d response\.$/);
      }
    });
  }
});
