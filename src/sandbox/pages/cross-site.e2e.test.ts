// A sandbox left running as `npx ramp-api-sandbox` starts it (no admin token), and a hostile page on another
// local origin, in a real browser (Debian's Chromium, driven by playwright-core): the page's auto-submitted
// forms (the body-less resetSandbox and approveUser, and createTenant with a JSON-looking text/plain body) change
// nothing, and its script cannot read the control API; meanwhile the dashboard's own buttons still work in the
// same browser.
import type { Browser, BrowserContext } from 'playwright-core';
import { orThrow } from 'ramp-api';
import { createSandboxClient, type SandboxClient } from 'ramp-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../testing/chromium.js';
import { type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { registerExampleUser } from '../../testing/sandbox-users.js';

/** How long a page or the API may take to show a change on this busy machine. */
const SHOWN_MS = 15_000;

const sandbox = useSandbox();
let control: SandboxClient;
let hostile: LocalServer;
let browser: Browser;
let context: BrowserContext;
let userId: string;
let tenantId: string;
const outside: string[] = [];

/** The hostile page: three forms, each posting into its own hidden frame, submitted as soon as it loads. */
function hostilePage(): string {
  const forms = [
    ['reset', '/sandbox/reset'],
    ['approve', `/sandbox/users/${userId}/approve`],
    ['tenant', '/sandbox/tenants'],
  ]
    .map(
      ([name, path]) =>
        `<iframe name="${name}" title="${name}"></iframe><form target="${name}" method="post" action="${sandbox.url}${path}" enctype="text/plain"><input name='{"name":"x","a":"' value='"}'></form>`,
    )
    .join('');
  const script = `
    window.results = {};
    let loaded = 0;
    for (const frame of document.querySelectorAll('iframe')) frame.addEventListener('load', () => { loaded++; });
    for (const form of document.forms) form.submit();
    fetch(${JSON.stringify(`${sandbox.url}/sandbox/tenants`)}).then(
      (r) => r.text().then((t) => { window.results.read = 'read ' + t.length; }),
      () => { window.results.read = 'blocked'; },
    );
    window.framesLoaded = () => loaded;`;
  return `<!doctype html><html lang="en"><title>A page elsewhere</title><h1>Nothing to see</h1>${forms}<script>${script}</script></html>`;
}

beforeAll(async () => {
  control = createSandboxClient({ baseUrl: sandbox.url });
  const tenant = await orThrow(control.createTenant({ body: { name: 'Tienda Andina SAS' } }));
  tenantId = tenant.clientId;
  userId = await registerExampleUser(sandbox.url, tenant);
  hostile = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostilePage());
  });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost')
      return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await hostile?.close();
});

describe('a hostile page on another local origin', () => {
  it('submits forms to the sandbox and reads it, changing and learning nothing', async () => {
    const before = await orThrow(control.listTenants());
    // The page is served from localhost (another site than 127.0.0.1) on its own port: another origin.
    const page = await context.newPage();
    const refused: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(sandbox.url) && response.request().method() === 'POST')
        refused.push(response.status());
    });
    await page.goto(hostile.url.replace('127.0.0.1', 'localhost'));
    await page.waitForFunction(() => (window as unknown as { framesLoaded(): number }).framesLoaded() === 3, null, {
      timeout: SHOWN_MS,
    });
    await page.waitForFunction(() => (window as unknown as { results: { read?: string } }).results.read, null, {
      timeout: SHOWN_MS,
    });
    // A form's content type is refused (415) before the Origin would be (403): the description's order.
    expect(refused.sort()).toEqual([415, 415, 415]);
    expect(await page.evaluate(() => (window as unknown as { results: { read: string } }).results.read)).toBe(
      'blocked',
    );
    expect(await orThrow(control.listTenants())).toEqual(before);
    const state = await orThrow(control.getTenantState({ params: { path: { tenantId } } }));
    expect(state.users.map((u) => u.status)).toEqual(['pending']);
    await page.close();
  });

  it("leaves the dashboard's own buttons working in the same browser", async () => {
    const page = await context.newPage();
    await page.goto(`${sandbox.url}/#tenant=${tenantId}`);
    await page.getByLabel('Advance by (seconds)').waitFor({ timeout: SHOWN_MS });
    const { offsetSeconds } = await orThrow(control.getClock());
    await page.getByLabel('Advance by (seconds)').fill('3600');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await page.waitForFunction(
      async ([url, expected]) => {
        const clock = await (await fetch(`${url}/sandbox/clock`)).json();
        return clock.offsetSeconds === expected;
      },
      [sandbox.url, offsetSeconds + 3600] as const,
      { timeout: SHOWN_MS },
    );
    expect((await orThrow(control.getClock())).offsetSeconds).toBe(offsetSeconds + 3600);
    await page.close();
  });

  it('requested nothing off this machine', () => {
    expect(outside).toEqual([]);
  });
});
