// The sandbox's pages in a real browser (Debian's Chromium, driven by playwright-core; never a downloaded
// browser), by clicking only: a user registered through the API is approved on the page of its KYC link; a
// bank account is accepted and a balance funded on the dashboard; an on-ramp is paid on its checkout page and
// the browser lands on the on-ramp's redirectUrl (a loopback page of this test); a payout is completed; the
// deliveries of a failing endpoint show on the timeline, the clock is advanced until every retry has landed,
// and one delivery is redelivered. Each step is checked on the page and against the API. axe-core runs on each
// page (no serious or critical violation), nothing is requested off loopback, and screenshots go to reports/.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createV1Client, orThrow, type V1Client } from 'ramp-api';
import { createSandboxClient, type SandboxClient } from 'ramp-api/sandbox';
import { deliverySchedule } from 'ramp-api/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../testing/chromium.js';
import { type EventReceiver, startEventReceiver } from '../../testing/event-receiver.js';
import { type LocalServer, startLocalServer } from '../../testing/local-server.js';
import { repoRoot } from '../../testing/repo.js';
import { useSandbox } from '../../testing/sandbox-fixture.js';
import { registerExampleUser } from '../../testing/sandbox-users.js';
import { until } from '../../testing/until.js';

const reports = join(repoRoot, 'reports');
const ADMIN_TOKEN = `adm_${randomUUID()}`;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** How long a page or the API may take to show a change on this busy machine. */
const SHOWN_MS = 15_000;

const sandbox = useSandbox({ adminToken: ADMIN_TOKEN });
let admin: SandboxClient;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shop: LocalServer;
let failing: EventReceiver;
const outside: string[] = [];
const consoleErrors: string[] = [];
const axeResults: Record<string, { id: string; impact: string | null; nodes: number }[]> = {};

// The tenant and its records, made through the APIs as an integration would.
let tenant: Awaited<ReturnType<SandboxClient['createTenant']>>['data'] & {};
let v1: V1Client;
let userId: string;
let kycUrl: string;
let accountId: string;
let endpointId: string;

const tenantState = () => orThrow(admin.getTenantState({ params: { path: { tenantId: tenant.clientId } } }));

/** axe-core on the page as it is now: every violation is recorded; serious and critical ones fail the test. */
async function axe(name: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string | null; nodes: { target: unknown }[]; help: string }[];
          }>;
        };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  axeResults[name] = violations.map(({ id, impact, nodes }) => ({ id, impact, nodes }));
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    `${name}: serious or critical axe-core violations`,
  ).toEqual([]);
}

const shot = (name: string) => page.screenshot({ path: join(reports, `sandbox-${name}.png`), fullPage: true });

// The bundles and the pages are built by the global setup (scripts/test-setup/build.ts).
beforeAll(async () => {
  mkdirSync(reports, { recursive: true });
  admin = createSandboxClient({ baseUrl: sandbox.url, adminToken: ADMIN_TOKEN });
  shop = await startLocalServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html lang="en"><title>Shop</title><h1>Back at the shop</h1></html>');
  });
  failing = await startEventReceiver('error500');
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  page = await context.newPage();
  page.on('console', (message) => {
    // A refused control call (the 401 before the token is given, a 409 shown on the page) is logged by Chromium as a failed resource.
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (401|409)/.test(message.text())
    )
      consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));

  tenant = await orThrow(admin.createTenant({ body: { name: 'Tienda Andina SAS' } }));
  v1 = createV1Client({ baseUrl: sandbox.url, auth: { credentials: tenant.v1Credentials }, retry: false });
  userId = await registerExampleUser(sandbox.url, tenant);
  ({ url: kycUrl } = await orThrow(
    v1.generateKycUrl({
      params: {
        path: { user_id: userId },
        query: { template_id: 'tpl-persona-natural', custom_metadata_name: 'alta-web' },
      },
    }),
  ));
  ({ accountId } = await orThrow(
    admin.createBankAccount({
      body: { clientId: tenant.clientId, userId, bankName: 'Bancolombia', accountNumber: '0981-2345-67' },
    }),
  ));
  ({ id: endpointId } = await orThrow(
    v1.createIntegrationEndpoint({
      body: {
        name: 'ledger (down)',
        direction: 'OUTBOUND',
        url: `${failing.url}/ramp/fiat.payout.completed`,
        httpMethod: 'POST',
        triggerEvent: 'fiat.payout.completed',
      },
    }),
  ));
}, 120_000);

afterAll(async () => {
  writeFileSync(join(reports, 'sandbox-pages-axe.json'), `${JSON.stringify(axeResults, null, 2)}\n`);
  await context?.close();
  await browser?.close();
  await shop?.close();
  await failing?.close();
});

describe('the sandbox in a browser, by clicking only', () => {
  it('asks for the admin token before showing anything, then shows the tenant', async () => {
    await page.goto(`${sandbox.url}/`);
    await page.getByLabel('Admin token').waitFor({ timeout: SHOWN_MS });
    expect(await page.innerText('body')).not.toContain(tenant.name);
    await axe('token form');
    await shot('token');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await page.getByRole('link', { name: /Tienda Andina SAS/ }).click();
    await page.getByRole('heading', { name: /Tienda Andina SAS/, level: 2 }).waitFor({ timeout: SHOWN_MS });
    await page.getByRole('cell', { name: 'Laura Marcela Gómez Restrepo', exact: true }).waitFor({ timeout: SHOWN_MS });
  });

  it("approves the user on its KYC link's page, which then says the link was used", async () => {
    await page.goto(kycUrl);
    await page
      .getByTestId('kyc-name')
      .filter({ hasText: 'Laura Marcela Gómez Restrepo' })
      .waitFor({ timeout: SHOWN_MS });
    const text = await page.innerText('main');
    for (const shown of ['CC 1036654321', 'tpl-persona-natural', 'alta-web', 'pending']) expect(text).toContain(shown);
    await axe('KYC page');
    await shot('kyc');
    await page.getByRole('button', { name: 'Approve identity' }).click();
    await page.getByText('Verification approved').waitFor({ timeout: SHOWN_MS });
    expect((await tenantState()).users.map((u) => [u.userId, u.status])).toEqual([[userId, 'approved']]);
    const { events } = await orThrow(admin.listEvents({ params: { query: { tenant: tenant.clientId } } }));
    expect(events.filter((e) => e.event === 'user.updated').map((e) => (e.data as { status: string }).status)).toEqual([
      'approved',
    ]);
    await page.reload();
    await page.getByText(/This link was already used: the user was approved/).waitFor({ timeout: SHOWN_MS });
    expect(await page.getByRole('button', { name: 'Approve identity' }).count()).toBe(0);
  });

  it('accepts the bank account and funds the balance on the dashboard', async () => {
    await page.goto(`${sandbox.url}/#tenant=${tenant.clientId}`);
    const users = page.getByTestId('users');
    await users.getByRole('cell', { name: 'approved', exact: true }).waitFor({ timeout: SHOWN_MS });
    await page.getByRole('button', { name: 'Accept account Bancolombia 0981-2345-67' }).click();
    await page.getByTestId('bank-accounts').getByText('accepted').waitFor({ timeout: SHOWN_MS });
    expect((await tenantState()).bankAccounts.map((a) => a.status)).toEqual(['accepted']);

    await page.getByLabel('Fund the balance of').selectOption({ label: 'Laura Gómez' });
    await page.getByLabel('Amount to fund Laura Gómez').fill('2000000');
    await page.getByRole('button', { name: 'Fund Laura Gómez' }).click();
    await page.getByTestId('balances').getByText('2.000.000 COP').waitFor({ timeout: SHOWN_MS });
    expect((await tenantState()).balances).toEqual([{ userId, currency: 'COP', balance: 2_000_000 }]);
  });

  it("pays an on-ramp on its checkout page and lands on the on-ramp's redirectUrl", async () => {
    const { externalWalletId } = await orThrow(admin.createExternalWallet({ body: { userId } }));
    const redirectUrl = `${shop.url}/orders/7/return`;
    const created = await orThrow(
      v1.createOnRamp({
        params: { path: { user_id: userId } },
        body: {
          amount: 400_000,
          paymentMethod: 'PSE',
          bankCode: '1051',
          redirectUrl,
          destination: { type: 'EXTERNAL', externalWalletId },
        },
      }),
    );
    // The dashboard follows the API without a reload: the new on-ramp appears, with its checkout link.
    const checkout = page.getByRole('link', { name: `Checkout of on-ramp ${created.operation.numberCode}` });
    await checkout.waitFor({ timeout: SHOWN_MS });
    await checkout.click();
    await page.getByTestId('checkout-amount').filter({ hasText: '400.000 COP' }).waitFor({ timeout: SHOWN_MS });
    expect(await page.getByTestId('checkout-bank').innerText()).toBe('Davivienda (1051)');
    expect(await page.innerText('main')).toContain(redirectUrl);
    await axe('checkout page');
    await shot('checkout');
    await page.getByRole('button', { name: 'Pay 400.000 COP' }).click();
    await page.waitForURL(redirectUrl, { timeout: SHOWN_MS });
    await page.getByRole('heading', { name: 'Back at the shop' }).waitFor();
    expect(shop.requests.map((r) => r.url)).toContain('/orders/7/return');
    expect((await tenantState()).onRamps.map((o) => [o.id, o.status])).toEqual([[created.operation.id, 'COMPLETED']]);
    const { events } = await orThrow(admin.listEvents({ params: { query: { tenant: tenant.clientId } } }));
    expect(events.filter((e) => (e.data as { id?: string }).id === created.operation.id).map((e) => e.event)).toEqual([
      'operation.created',
      'fiat.payin.completed',
      'operation.status_updated',
    ]);
  });

  it("completes a payout, and shows the failing endpoint's deliveries on the timeline as the clock is advanced, then redelivers", async () => {
    const payout = await orThrow(
      v1.createPayout({
        params: { path: { user_id: userId } },
        body: { amount: 1_500_000, currency: 'COP', destinationId: accountId, paymentMethod: 'ACH' },
      }),
    );
    await page.goto(`${sandbox.url}/#tenant=${tenant.clientId}`);
    await page.getByRole('button', { name: `Complete payout ${payout.id.slice(0, 8)}` }).click();
    await page.getByTestId('payouts').getByText('COMPLETED').waitFor({ timeout: SHOWN_MS });
    expect((await tenantState()).payouts.map((p) => [p.id, p.status])).toEqual([[payout.id, 'COMPLETED']]);

    const schedule = deliverySchedule();
    const deliveryOnPage = page.locator(
      `[data-testid=event][data-event="fiat.payout.completed"][data-subject="${payout.id}"] [data-testid=delivery]`,
    );
    const attemptsOnPage = deliveryOnPage.locator('[data-testid=attempt]');
    const apiDelivery = async () =>
      (await orThrow(admin.listDeliveries({ params: { query: { endpoint: endpointId } } }))).deliveries;
    const seen = async (calls: number) => {
      await until(
        async () => (await attemptsOnPage.count()) === calls,
        `${calls} attempt(s) on the timeline`,
        SHOWN_MS,
      );
      const [delivery] = await apiDelivery();
      expect(delivery!.attempts.map((a) => [a.attempt, a.outcome, a.httpStatus])).toEqual(
        Array.from({ length: calls }, (_, i) => [i + 1, 'http_status', 500]),
      );
      expect(await attemptsOnPage.last().innerText()).toMatch(new RegExp(`^Attempt ${calls} at [0-9:.]+: HTTP 500$`));
      return delivery!;
    };
    let delivery = await seen(1);
    expect(await deliveryOnPage.getByTestId('next-retry').innerText()).toBe(
      `Next retry at ${delivery.nextAttemptAt!.slice(11, 23)}`,
    );
    await shot('timeline-first-call');
    for (const [i, delay] of schedule.retryDelaysMs.entries()) {
      await page.getByLabel('Advance by (seconds)').fill(String(delay / 1000));
      await page.getByRole('button', { name: 'Advance clock' }).click();
      delivery = await seen(i + 2);
    }
    expect(delivery.attempts).toHaveLength(schedule.calls);
    await until(
      async () => (await deliveryOnPage.getAttribute('data-status')) === 'failed',
      'the delivery shown as failed',
      SHOWN_MS,
    );
    expect([delivery.status, delivery.nextAttemptAt]).toEqual(['failed', null]);
    expect(await deliveryOnPage.getByTestId('next-retry').count()).toBe(0);
    expect(failing.ids.length).toBe(schedule.calls);
    await axe('dashboard');

    await deliveryOnPage.getByRole('button', { name: /^Redeliver fiat.payout.completed/ }).click();
    delivery = await seen(schedule.calls + 1);
    expect(failing.ids.length).toBe(schedule.calls + 1);
    await page.getByTestId('events').scrollIntoViewIfNeeded();
    await shot('dashboard');
    await deliveryOnPage.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(reports, 'sandbox-timeline.png') });
  });

  it('requested nothing off loopback and logged no error', () => {
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
