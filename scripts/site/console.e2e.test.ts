// The references' console in Debian's Chromium, over the site `npm start` serves, driven by role and accessible
// name: every operation of the three descriptions (listed from the bundles) sent to the sandbox with what it
// needs (a tenant made in one click, then the records earlier consoles made: a user, a wallet, an account...)
// and its answer checked; a documented error status asked of each mock and checked; a local server answering a
// wrong body, named as a mismatch; an address that blocks the browser (CORS), said in one line; a refusal named
// apart from conformance, with its next step; the TypeScript sample copied into a fresh consumer project and the
// curl line into a fresh shell, each with the lines that set the credentials the console offers, and run, with
// the console's status; no serious or critical axe-core violation with the console open.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../src/testing/chromium.js';
import { type LocalRegistry, startLocalRegistry } from '../../src/testing/local-registry.js';
import { json, type LocalServer, startLocalServer } from '../../src/testing/local-server.js';
import { killTree } from '../../src/testing/process-tree.js';
import { until } from '../../src/testing/until.js';
import { allApiFamilies, type OpenApiDocument, readBundle, repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import { redocRoute } from './landing.js';
import { bodyExamples, listOperations, type OperationEntry } from '../../src/sandbox/contract/lookup.js';
import { clientOf, defaultBaseUrl } from './samples.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const reports = join(repoRoot, 'reports');
const work = mkdtempSync(join(tmpdir(), 'ramp-console-e2e-'));

interface Addresses {
  site: string;
  sandbox: string;
  mocks: Record<string, string>;
}
let start: ChildProcess;
let output = '';
let addresses: Addresses;
let browser: Browser;
let page: Page;
const outside: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(reports, { recursive: true });
  // `npm start` as a newcomer runs it, on free ports, in a process group of its own so that all of it stops.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  start = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, PORT: '', SANDBOX_PORT: '' },
  });
  start.stdout!.on('data', (chunk) => (output += String(chunk)));
  start.stderr!.on('data', (chunk) => (output += String(chunk)));
  await until(() => output.includes('Ctrl-C to stop.'), 'npm start printing "Ctrl-C to stop."', 110_000);
  const line = (label: string) => new RegExp(`^${label}\\s+(http://\\S+?)/?(?:\\s|$)`, 'm').exec(output)?.[1];
  addresses = {
    site: line('Documentation:')!,
    sandbox: line('Sandbox:')!,
    mocks: Object.fromEntries(
      [...output.matchAll(/^(\S+) API mock:\s+(http:\/\/\S+)/gm)].map((m) => [m[1]!, m[2]!] as [string, string]),
    ),
  };
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: addresses.site });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 150_000);

afterAll(async () => {
  await browser?.close();
  if (start?.pid && start.exitCode === null) {
    process.kill(-start.pid, 'SIGTERM');
    const exited = new Promise((resolve) => start.once('exit', resolve));
    const timer = setTimeout(() => killTree(start.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(work, { recursive: true, force: true });
}, 30_000);

const pageOf = (family: string) => `${family}.html`;
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens the family's reference at the operation (Redoc's route) and its console; returns the console. */
async function openConsole(family: string, doc: OpenApiDocument, entry: OperationEntry): Promise<Locator> {
  const target = `${addresses.site}/${pageOf(family)}`;
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
async function sendAndRead(
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

async function fillParameter(console_: Locator, name: string, where: string, value: string): Promise<void> {
  await console_.getByRole('textbox', { name: new RegExp(`^${literally(name)} \\(${where}`) }).fill(value);
}

async function fillBody(console_: Locator, body: unknown): Promise<void> {
  const editor = console_.getByRole('textbox', { name: 'Request body (JSON)' });
  await editor.fill(JSON.stringify(body, null, 2));
}

describe('the console against the sandbox', () => {
  /** IDs the earlier answers gave, by the parameter and body field names that take them. */
  const known: Record<string, string> = {};
  const results: { family: string; operationId: string; status: number; verdict: string }[] = [];

  /**
   * What an answer holds that later operations take: every `...Id`/`..._id` field by its name, the record an
   * operation creates (or the first one a list gives) under the parameter names that take it, and the sessions
   * and checkouts that KYC and checkout links name.
   */
  function harvest(entry: OperationEntry, body: unknown): void {
    let firstId: string | undefined;
    const visit = (node: unknown, depth: number) => {
      if (typeof node === 'string') {
        const session = /\/sandbox\/kyc\/([^/?#"]+)/.exec(node);
        if (session) known.sessionId = session[1]!;
        const checkout = /\/sandbox\/checkout\/([^/?#"]+)/.exec(node);
        if (checkout) known.checkoutId = checkout[1]!;
      }
      if (!node || typeof node !== 'object' || depth > 5) return;
      if (Array.isArray(node)) {
        for (const item of node.slice(0, 3)) visit(item, depth + 1);
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        if (typeof value === 'string' && key === 'id') firstId ??= value;
        if (typeof value === 'string' && /(Id$|_id$)/.test(key)) known[key] ??= value;
        visit(value, depth + 1);
      }
    };
    visit(body, 0);
    const record = body as Record<string, unknown>;
    const own = record.id ?? record.user_id ?? record.accountId ?? firstId;
    // The record an operation creates, or the first one it lists, by the names of the parameters that take it.
    const takenAs: Record<string, string[]> = {
      registerUser: ['user_id', 'userId'],
      createCustodyWallet: ['walletId', 'walletOriginId'],
      createPayout: ['payoutId'],
      createOnRamp: ['operationId'],
      createWalletTransfer: ['transferId'],
      createBusinessWebhook: ['webhook_id'],
      createBankAccount: ['accountId', 'destinationId'],
      listDeliveries: ['deliveryId'],
    };
    for (const name of takenAs[entry.operationId] ?? []) if (typeof own === 'string') known[name] = own;
  }

  /** The operation's body example with every field that names a known record replaced by it. */
  function bodyFor(doc: OpenApiDocument, entry: OperationEntry): unknown {
    const replace = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(replace);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [
          key,
          typeof value === 'string' && known[key] && key !== 'operationId' ? known[key] : replace(value),
        ]),
      );
    };
    return replace(structuredClone(bodyExamples(doc, entry)[0]?.[1] ?? {}));
  }

  // Every operation of the three bundles. Those that make the records others need go first, in the order a
  // newcomer would call them (a user registered, approved and funded, a wallet, an accepted account...); those
  // that end a record (reject, cancel) and resetSandbox, which clears every tenant, go last; the rest keep the
  // bundles' order.
  const FIRST = [
    'registerUser',
    'approveUser',
    'fundUser',
    'generateKycUrl',
    'createCustodyWallet',
    'fundWallet',
    'createBankAccount',
    'acceptBankAccount',
    'createExternalWallet',
    'createBusinessWebhook',
    'createPayout',
    'createOnRamp',
    'getCheckout',
  ];
  const rank = (operationId: string) => {
    if (operationId === 'resetSandbox') return 1000;
    if (/^(reject|cancel|delete)/.test(operationId)) return 900;
    const first = FIRST.indexOf(operationId);
    return first >= 0 ? first - 100 : 0;
  };
  const operations = ['business', 'v1', SANDBOX_FAMILY]
    .flatMap((family) => {
      const api = allApiFamilies().find((a) => a.name === family)!;
      const doc = readBundle(api);
      return listOperations(doc).map((entry) => ({ family, doc, entry }));
    })
    .sort((a, b) => rank(a.entry.operationId) - rank(b.entry.operationId));

  it('makes a tenant in one click', async () => {
    const api = allApiFamilies().find((a) => a.name === 'business')!;
    const doc = readBundle(api);
    const console_ = await openConsole('business', doc, listOperations(doc)[0]!);
    await console_.getByRole('radio', { name: /The local sandbox/ }).check();
    await console_.getByRole('button', { name: 'Make a tenant' }).click();
    const tenant = console_.getByRole('status', { name: 'Tenant' });
    await expect.poll(() => tenant.innerText()).toMatch(/^Tenant .* clientId/);
    const line = await tenant.innerText();
    known.clientId = /clientId ([0-9a-f-]{36})/.exec(line)![1]!;
    known.tenantId = known.clientId;
    expect(line).toContain('they stay in this tab');
  });

  for (const { family, doc, entry } of operations) {
    it(`${family} ${entry.operationId}: sent with what it needs, and the answer checked`, async () => {
      const console_ = await openConsole(family, doc, entry);
      await console_.getByRole('radio', { name: /The local sandbox/ }).check();
      for (const p of entry.parameters) {
        if (p.in !== 'path') continue;
        const value = p.name === 'operationId' && entry.path.includes('rate-limits') ? 'listBanks' : known[p.name];
        if (value) await fillParameter(console_, p.name, 'path', value);
      }
      if (entry.operation.requestBody && (await console_.getByRole('textbox', { name: 'Request body (JSON)' }).count()))
        await fillBody(console_, bodyFor(doc, entry));
      const { status, verdict, outcome, body } = await sendAndRead(console_);
      results.push({ family, operationId: entry.operationId, status, verdict });
      expect(verdict, `${entry.operationId} answered ${status}: ${JSON.stringify(body)}`).toMatch(
        /^Checked: the answer matches the description \(documented \S+ response\)\.$/,
      );
      // The outcome reads apart from conformance: a refusal is named as one, with its code.
      expect(outcome).toMatch(
        status < 400
          ? new RegExp(`^The service accepted the request \\(${status}\\)\\.$`)
          : new RegExp(`^The service refused: .+ \\(${status}\\)\\.`),
      );
      if (status < 300) harvest(entry, body);
    });
  }

  afterAll(() => {
    writeFileSync(join(reports, 'console-operations.json'), `${JSON.stringify(results, null, 2)}\n`);
    const success = results.filter((r) => r.status < 300).length;
    console.log(
      `console: ${results.length} operations sent from the browser, ${success} answered a success status, every answer checked`,
    );
  });
});

const bundleOf = (family: string) => readBundle(allApiFamilies().find((a) => a.name === family)!);
const operationOf = (family: string, operationId: string) =>
  listOperations(bundleOf(family)).find((e) => e.operationId === operationId)!;

describe('the console against a mock', () => {
  for (const family of ['business', 'v1']) {
    it(`asks the ${family} mock for a documented error status (Prefer: code=) and checks the answer`, async () => {
      const doc = bundleOf(family);
      // The first operation that documents an error status other than 401, with that status.
      const entry = listOperations(doc).find((e) =>
        Object.keys(e.operation.responses ?? {}).some((s) => /^[45]\d\d$/.test(s) && s !== '401'),
      )!;
      const status = Object.keys(entry.operation.responses).find((s) => /^[45]\d\d$/.test(s) && s !== '401')!;
      const console_ = await openConsole(family, doc, entry);
      await console_.getByRole('radio', { name: /The Prism mock/ }).check();
      await console_.getByRole('combobox', { name: 'Ask the mock for status' }).selectOption(status);
      await expect
        .poll(() => console_.getByRole('region', { name: 'curl' }).innerText())
        .toContain(`Prefer: code=${status}`);
      const answer = await sendAndRead(console_);
      expect(answer.status).toBe(Number(status));
      expect(answer.verdict).toBe(`Checked: the answer matches the description (documented ${status} response).`);
      expect(answer.outcome).toMatch(new RegExp(`^The service refused: .+ \\(${status}\\)\\.`));
    });
  }
});

describe('the console against another address', () => {
  let wrong: LocalServer;
  let closed: LocalServer;
  beforeAll(async () => {
    // A deployment that answers listBanks with a body that breaks the description: a bank without its name,
    // and an id that is a number. It lets the site's origin read its answers.
    wrong = await startLocalServer((req, res) => {
      const cors = {
        'access-control-allow-origin': addresses.site,
        'access-control-allow-headers': '*',
        'access-control-expose-headers': '*',
      };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      json(res, 200, [{ id: 7, code: '1007', status: 'true' }], cors);
    });
    // One that answers without any CORS header: the browser keeps the page from reading it.
    closed = await startLocalServer((_req, res) => json(res, 200, []));
  });
  afterAll(async () => {
    await wrong?.close();
    await closed?.close();
  });

  it('names each mismatch of a wrong body, with its JSON pointer and the schema words', async () => {
    const console_ = await openConsole('business', bundleOf('business'), operationOf('business', 'listBanks'));
    await console_.getByRole('radio', { name: 'Another address' }).check();
    await console_.getByRole('textbox', { name: 'Base URL' }).fill(wrong.url);
    const answer = await sendAndRead(console_);
    expect(answer.status).toBe(200);
    expect(answer.verdict).toContain('Checked: the answer breaks the description (documented 200 response)');
    expect(answer.verdict).toContain("/0 must have required property 'name'");
    expect(answer.verdict).toContain('/0/id must be string');
    await console_.getByRole('region', { name: 'Answer' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(reports, 'console-flagged.png') });
  });

  it('says in one line that an address blocks the browser (CORS), and what to do', async () => {
    const console_ = await openConsole('business', bundleOf('business'), operationOf('business', 'listBanks'));
    await console_.getByRole('radio', { name: 'Another address' }).check();
    await console_.getByRole('textbox', { name: 'Base URL' }).fill(closed.url);
    await console_.getByRole('button', { name: 'Send' }).click();
    const alert = console_.getByRole('region', { name: 'Answer' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe(
      `${closed.url} answers but does not let this page read its answers (CORS): allow ${addresses.site} there (Access-Control-Allow-Origin), or run the curl line below in a terminal.`,
    );
  });
});

describe('the samples, copied and run', () => {
  let registry: LocalRegistry;
  let project: string;
  beforeAll(async () => {
    // A consuming project, as the consumer test makes one: the packed client from a local registry.
    const packs = join(work, 'packs');
    mkdirSync(packs);
    const { stdout } = await run(
      'npm',
      ['pack', '-w', 'ramp-api', '--ignore-scripts', '--json', '--pack-destination', packs],
      { cwd: repoRoot },
    );
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    const tarball = join(packs, packed!.filename);
    registry = await startLocalRegistry({ nodeModules: [join(repoRoot, 'node_modules')], tarballs: [tarball] });
    project = join(work, 'consumer');
    mkdirSync(project);
    const npmEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))),
      npm_config_registry: registry.url,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    await run('npm', ['init', '-y'], { cwd: project, env: npmEnv });
    await run('npm', ['i', tarball], { cwd: project, env: npmEnv });
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
  });

  /** Makes a fresh tenant in the console (the earlier suites' was removed by resetSandbox). */
  async function freshTenant(console_: Locator): Promise<void> {
    const tenant = console_.getByRole('status', { name: 'Tenant' });
    const before = await tenant.innerText();
    await console_.getByRole('button', { name: 'Make a tenant' }).click();
    await expect.poll(() => tenant.innerText()).toMatch(/^Tenant .* clientId/);
    await expect.poll(() => tenant.innerText()).not.toBe(before);
  }

  /** The sample the console's copy button puts on the clipboard, checked against the one it shows. */
  async function copied(console_: Locator, title: string): Promise<string> {
    await console_.getByRole('button', { name: `Copy the ${title}` }).click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(await console_.getByRole('region', { name: title }).innerText()).toContain(text.trim());
    return text;
  }

  /** A shell or Node process with nothing of this one's environment but PATH and HOME. */
  const freshEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work });

  for (const [family, operationId] of [
    [SANDBOX_FAMILY, 'createTenant'],
    ['business', 'listBanks'],
    ['v1', 'listAdminBanks'],
  ] as const) {
    it(`${family} ${operationId}: the copied samples, with the credentials the console offers, answer the console's status`, async () => {
      const console_ = await openConsole(family, bundleOf(family), operationOf(family, operationId));
      await console_.getByRole('radio', { name: /The local sandbox/ }).check();
      const secured = family !== SANDBOX_FAMILY;
      if (secured) await freshTenant(console_);
      const answer = await sendAndRead(console_);
      expect(answer.status).toBeLessThan(300);
      const sample = await copied(console_, 'TypeScript sample');
      const curl = await copied(console_, 'curl');
      let shellLines = '';
      let typeScriptLines = '';
      if (secured) {
        const offer = console_.getByRole('region', { name: "The tenant's credentials" });
        // Hidden until asked for.
        expect(await offer.getByRole('region', { name: 'Shell variables' }).count()).toBe(0);
        await offer.getByRole('button', { name: /^Show the tenant's credentials/ }).click();
        shellLines = await copied(offer, 'Shell variables');
        typeScriptLines = await copied(offer, 'TypeScript variables');
        expect(shellLines).toContain(`export ${clientOf(family).env.secret}=`);
        await offer.getByRole('button', { name: "Hide the tenant's credentials" }).click();
      }
      // The TypeScript sample in the fresh consumer project, the credentials' line at its top.
      const file = join(project, `${family}-${operationId}.mts`);
      writeFileSync(file, `${typeScriptLines}${sample}`);
      const tsx = require.resolve('tsx');
      const ts = await run(process.execPath, ['--import', tsx, file], {
        cwd: project,
        timeout: 30_000,
        env: freshEnv(),
      });
      rmSync(file);
      expect(Number(ts.stdout.split(' ')[0])).toBe(answer.status);
      // The curl line in a fresh shell, after the lines that set its variables.
      // From a file, so that a failure's message names the file, never the credentials in it.
      const script = join(work, `${family}-${operationId}.sh`);
      writeFileSync(script, `set -e\n${shellLines}${curl}`);
      const shell = await run('bash', [script], { cwd: work, timeout: 30_000, env: freshEnv() });
      rmSync(script);
      const statuses = [...shell.stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
      expect(statuses.at(-1)).toBe(answer.status);
      if (operationId === 'listBanks') {
        await console_.getByRole('region', { name: 'Answer' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(reports, 'console-valid.png') });
      }
    });
  }

  it('names a refusal apart from conformance, with its code and the next step linked to the control operation', async () => {
    const console_ = await openConsole('business', bundleOf('business'), operationOf('business', 'listCustodyWallets'));
    await console_.getByRole('radio', { name: /The local sandbox/ }).check();
    await fillParameter(console_, 'userId', 'path', '00000000-0000-4000-8000-000000000000');
    const answer = await sendAndRead(console_);
    expect(answer.status).toBe(403);
    expect(answer.verdict).toBe('Checked: the answer matches the description (documented 403 response).');
    expect(answer.outcome).toMatch(/^The service refused: user_not_approved \(403\)\.\n/);
    expect(answer.outcome).toMatch(/Next: approve the user with approveUser\.$/);
    const link = console_.getByRole('region', { name: 'Answer' }).getByRole('link', { name: 'approveUser' });
    expect(await link.getAttribute('href')).toBe('sandbox.html#/users/approveuser');
    await console_.getByRole('region', { name: 'Answer' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(reports, 'console-refused.png') });
  });
});

describe('the addresses npm start really started', () => {
  const documented = defaultBaseUrl();
  const bodyText = () => page.locator('body').innerText();

  it("are the running sandbox's on the landing page and in the guides, never the documented port", async () => {
    for (const path of ['/', '/guides/first-call.html']) {
      await page.goto(`${addresses.site}${path}`, { waitUntil: 'networkidle' });
      const text = await bodyText();
      expect(text, path).toContain(addresses.sandbox);
      if (addresses.sandbox !== documented) expect(text, path).not.toContain(documented);
    }
  });

  it("are the running sandbox's in a reference's sample", async () => {
    const doc = bundleOf(SANDBOX_FAMILY);
    const entry = operationOf(SANDBOX_FAMILY, 'getClock');
    await page.goto(`${addresses.site}/${pageOf(SANDBOX_FAMILY)}`, { waitUntil: 'networkidle' });
    await page.evaluate(
      (route) => {
        window.location.hash = route;
      },
      redocRoute(String(entry.operation.tags?.[0] ?? doc.info.title), entry.operationId),
    );
    await expect.poll(bodyText, { timeout: 15_000 }).toContain(`process.env.SANDBOX_URL ?? '${addresses.sandbox}'`);
  });
});

describe('accessibility and the page', () => {
  it('has no serious or critical axe-core violation with the console open', async () => {
    const console_ = await openConsole('v1', bundleOf('v1'), operationOf('v1', 'registerUser'));
    await console_.getByRole('radio', { name: /The local sandbox/ }).check();
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: any[] }> } }).axe;
      const result = await axe.run({ include: [['#ramp-console']] });
      return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
    });
    writeFileSync(join(reports, 'console-axe.json'), `${JSON.stringify(violations, null, 2)}\n`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('loaded nothing from outside the machine and threw no error', () => {
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
