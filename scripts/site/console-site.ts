// What the console's browser tests (console.e2e.test.ts, console-samples.e2e.test.ts) share: the site `npm start`
// serves, open in Chromium, and the steps of using a reference's console (open, fill, send, read).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { listOperations, type OperationEntry } from '../../src/client/lookup/index.js';
import { until } from '../../src/testing/until.js';
import { allApiFamilies, type OpenApiDocument, readBundle, repoRoot } from '../openapi/apis.js';
import { redocRoute } from './landing.js';
import { type ServedSite, startServedSite } from './served-site.js';

export const reports = join(repoRoot, 'reports');

/**
 * `npm start` and a page on its site (served-site.ts), the page let use the clipboard (the console's copy buttons),
 * for the test file that calls it: started before its tests, stopped after them; its fields are there once started.
 */
export function useConsoleSite(): ServedSite {
  const site = {} as ServedSite;
  beforeAll(async () => {
    Object.assign(site, await startConsoleSite());
  }, 150_000);
  afterAll(() => site.stop?.(), 30_000);
  return site;
}

async function startConsoleSite(): Promise<ServedSite> {
  mkdirSync(reports, { recursive: true });
  const served = await startServedSite();
  try {
    await served.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.site });
  } catch (error) {
    await served.stop();
    throw error;
  }
  return served;
}

export const pageOf = (family: string) => `${family}.html`;
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens the family's reference at the operation (Redoc's route) and its console; returns the console. */
export async function openConsole(
  { page, site }: ServedSite,
  family: string,
  doc: OpenApiDocument,
  entry: OperationEntry,
): Promise<Locator> {
  const target = `${site}/${pageOf(family)}`;
  if (!page.url().startsWith(target)) await page.goto(target, { waitUntil: 'networkidle' });
  const hash = redocRoute(String(entry.operation.tags?.[0] ?? doc.info.title), entry.operationId);
  await page.evaluate((route) => {
    window.location.hash = route;
  }, hash);
  const console_ = page.getByRole('complementary', { name: `Console: ${entry.operationId}` });
  if (!(await console_.isVisible())) {
    const close = page.getByRole('button', { name: 'Close the console' });
    if (await close.isVisible()) await close.click();
    await page.getByRole('button', { name: `Try ${entry.operationId} in the console` }).click();
  }
  await console_.waitFor();
  return console_;
}

/**
 * Sends, and returns the answer's status, the verdict's text (conformance), the outcome's (accepted, or refused
 * with a code and the next step) and the body as JSON (when it is).
 */
export async function sendAndRead(
  console_: Locator,
): Promise<{ status: number; verdict: string; outcome: string; body: unknown }> {
  await console_.getByRole('button', { name: /^Send/ }).click();
  const answer = console_.getByRole('region', { name: 'Answer' });
  await until(
    async () =>
      (await answer.count()) > 0 &&
      !(await console_.getByRole('button', { name: 'Sending...' }).count()) &&
      ((await answer.getByRole('status').count()) > 0 || (await answer.getByRole('alert').count()) > 0),
    'an answer',
    20_000,
  );
  const alert = answer.getByRole('alert');
  if (await alert.count()) throw new Error(`No answer: ${await alert.innerText()}`);
  const statusLine = await answer.innerText();
  const verdict = await answer.getByRole('status', { name: 'Conformance' }).innerText();
  const outcome = await answer.getByRole('status', { name: 'Outcome' }).innerText();
  const text = await answer.getByRole('region', { name: 'Response body' }).innerText();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: Number(/HTTP (\d{3})/.exec(statusLine)![1]), verdict, outcome, body };
}

export async function fillParameter(console_: Locator, name: string, where: string, value: string): Promise<void> {
  await console_.getByRole('textbox', { name: new RegExp(`^${literally(name)} \\(${where}`) }).fill(value);
}

export async function fillBody(console_: Locator, body: unknown): Promise<void> {
  const editor = console_.getByRole('textbox', { name: 'Request body (JSON)' });
  await editor.fill(JSON.stringify(body, null, 2));
}

export const bundleOf = (family: string) => readBundle(allApiFamilies().find((a) => a.name === family)!);
export const operationOf = (family: string, operationId: string) =>
  listOperations(bundleOf(family)).find((e) => e.operationId === operationId)!;
