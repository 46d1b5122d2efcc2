// Journeys in Debian's Chromium, over the site `npm start` serves, by role and accessible name: the payout
// journey run from its page to completed and to rejected, typing nothing, with the deliveries seen (the time each
// run takes is written to reports/journey-times.json, screenshots of a journey page and a finished run beside it);
// no serious or critical axe-core violation on a journey page; and the consoles of operations whose bodies carry
// values that must be unique, sent twice in a row on their default inputs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../src/client/lookup/index.js';
import { until } from '../../src/testing/until.js';
import { journeyTitle, readDocJourneys } from '../journeys/journey-docs.js';
import { allApiFamilies, readBundle, repoRoot } from '../openapi/apis.js';
import { redocRoute } from './landing.js';
import { type ServedSite, startServedSite } from './served-site.js';

const require = createRequire(import.meta.url);
const reports = join(repoRoot, 'reports');
const journeys = readDocJourneys(allApiFamilies().map((api) => ({ api, doc: readBundle(api) })));
const times: { workflowId: string; seconds: number; calls: number; shown: string }[] = [];

let served: ServedSite;
beforeAll(async () => {
  mkdirSync(reports, { recursive: true });
  served = await startServedSite();
}, 150_000);
afterAll(async () => {
  writeFileSync(join(reports, 'journey-times.json'), `${JSON.stringify(times, null, 2)}\n`);
  await served?.stop();
}, 30_000);

/** From the landing page, by the journey's link, to its page. */
async function openJourney(workflowId: string): Promise<string> {
  const journey = journeys.find((j) => j.workflow.workflowId === workflowId);
  if (!journey) throw new Error(`No journey ${workflowId} in openapi/workflows/.`);
  const title = journeyTitle(journey);
  await served.page.goto(`${served.site}/index.html`, { waitUntil: 'networkidle' });
  await served.page.getByRole('region', { name: 'Journeys' }).getByRole('link', { name: title, exact: true }).click();
  await served.page.getByRole('heading', { level: 1, name: title }).waitFor();
  return title;
}

describe('the payout journey, run from its page', () => {
  for (const [workflowId, status, event] of [
    ['payoutCompleted', 'COMPLETED', 'fiat.payout.completed'],
    ['payoutRejected', 'REJECTED', 'fiat.payout.rejected'],
  ] as const) {
    it(`${workflowId}: one click runs every step to ${status}, and the delivery of ${event} is shown`, async () => {
      const { page } = served;
      const title = await openJourney(workflowId);
      await page.getByRole('button', { name: 'Open the journey console' }).click();
      const console_ = page.getByRole('region', { name: `Journey console: ${title}` });
      await console_.waitFor();
      const started = performance.now();
      await console_.getByRole('button', { name: 'Run the journey' }).click();
      const result = console_.getByRole('status', { name: 'Journey result' });
      await result.waitFor({ timeout: 60_000 });
      const seconds = (performance.now() - started) / 1000;
      const text = await result.innerText();
      expect(text, text).toMatch(/^Journey completed: \d+ calls in [\d.]+ s, every answer checked\./);
      const steps = console_.getByRole('list', { name: 'Steps' }).getByRole('listitem');
      const states = await steps.evaluateAll((items) => items.map((item) => item.textContent ?? ''));
      expect(states.filter((s) => !/: passed/.test(s))).toEqual([]);
      expect(states.join('\n')).toContain(`"status": "${status}"`);
      const deliveries = console_.getByRole('region', { name: 'Events delivered' });
      const row = deliveries.getByRole('row').filter({ hasText: event });
      await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/\bdelivered\b/);
      times.push({
        workflowId,
        seconds: Number(seconds.toFixed(2)),
        calls: states.length,
        shown: /in ([\d.]+ s)/.exec(text)![1]!,
      });
      if (workflowId === 'payoutCompleted') {
        await deliveries.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(reports, 'journey-run.png'), fullPage: false });
      }
    }, 120_000);
  }

  it('a journey page has no serious or critical axe-core violation', async () => {
    const { page } = served;
    const title = await openJourney('payoutCompleted');
    // The sequence diagram, by its accessible name (its SVG title), with its text alternative.
    const diagram = page.getByRole('img', { name: `Sequence of ${title}` });
    await diagram.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(reports, 'journey-page.png') });
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
      const result = await axe.run();
      return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
    });
    writeFileSync(join(reports, 'journey-axe.json'), `${JSON.stringify(violations, null, 2)}\n`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

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
    verdict: await answer.getByRole('status', { name: 'Conformance' }).innerText(),
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
        expect(verdict).toMatch(/^Checked: the answer matches the description \(documented 20\d response\)\.$/);
      }
    });
  }

  it('loaded nothing from outside the machine and threw no error', () => {
    expect(served.outside).toEqual([]);
    expect(served.pageErrors).toEqual([]);
  });
});
