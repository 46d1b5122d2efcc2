// The references' console in Debian's Chromium, over the site `npm start` serves, apart from the sandbox's
// operations (console.e2e.test.ts): a documented error status asked of each mock and checked; a local server
// answering a wrong body, named as a mismatch; an address that blocks the browser (CORS), said in one line; a refusal
// named apart from conformance, with its next step; the TypeScript sample copied into a fresh consumer project and
// the curl line into a fresh shell, each with the lines that set the credentials the console offers, and run, with
// the console's status; the addresses `npm start` really started, on the pages. What both use is in console-site.ts.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../src/client/lookup/index.js';
import { type LocalRegistry, startLocalRegistry } from '../../src/testing/local-registry.js';
import { json, type LocalServer, startLocalServer } from '../../src/testing/local-server.js';
import { repoRoot, SANDBOX_FAMILY } from '../openapi/apis.js';
import {
  bundleOf,
  fillParameter,
  openConsole,
  operationOf,
  pageOf,
  reports,
  sendAndRead,
  useConsoleSite,
} from './console-site.js';
import { redocRoute } from './landing.js';
import { clientOf, defaultBaseUrl } from './samples.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'ramp-console-e2e-'));
const served = useConsoleSite();
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the console against a mock', () => {
  for (const family of ['business', 'v1']) {
    it(`asks the ${family} mock for a documented error status (Prefer: code=) and checks the answer`, async () => {
      const doc = bundleOf(family);
      // The first operation that documents an error status other than 401, with that status.
      const entry = listOperations(doc).find((e) =>
        Object.keys(e.operation.responses ?? {}).some((s) => /^[45]\d\d$/.test(s) && s !== '401'),
      )!;
      const status = Object.keys(entry.operation.responses).find((s) => /^[45]\d\d$/.test(s) && s !== '401')!;
      const console_ = await openConsole(served, family, doc, entry);
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
        'access-control-allow-origin': served.site,
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
    const console_ = await openConsole(served, 'business', bundleOf('business'), operationOf('business', 'listBanks'));
    await console_.getByRole('radio', { name: 'Another address' }).check();
    await console_.getByRole('textbox', { name: 'Base URL' }).fill(wrong.url);
    const answer = await sendAndRead(console_);
    expect(answer.status).toBe(200);
    expect(answer.verdict).toContain('Checked: the answer breaks the description (documented 200 response)');
    expect(answer.verdict).toContain("/0 must have required property 'name'");
    expect(answer.verdict).toContain('/0/id must be string');
    await console_.getByRole('region', { name: 'Answer' }).scrollIntoViewIfNeeded();
    await served.page.screenshot({ path: join(reports, 'console-flagged.png') });
  });

  it('says in one line that an address blocks the browser (CORS), and what to do', async () => {
    const console_ = await openConsole(served, 'business', bundleOf('business'), operationOf('business', 'listBanks'));
    await console_.getByRole('radio', { name: 'Another address' }).check();
    await console_.getByRole('textbox', { name: 'Base URL' }).fill(closed.url);
    await console_.getByRole('button', { name: 'Send' }).click();
    const alert = console_.getByRole('region', { name: 'Answer' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe(
      `${closed.url} answers but does not let this page read its answers (CORS): allow ${served.site} there (Access-Control-Allow-Origin), or run the curl line below in a terminal.`,
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

  /** Makes a fresh tenant in the console, for the operations that need its token. */
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
    const text = await served.page.evaluate(() => navigator.clipboard.readText());
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
      const console_ = await openConsole(served, family, bundleOf(family), operationOf(family, operationId));
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
        await served.page.screenshot({ path: join(reports, 'console-valid.png') });
      }
    });
  }

  it('names a refusal apart from conformance, with its code and the next step linked to the control operation', async () => {
    const console_ = await openConsole(
      served,
      'business',
      bundleOf('business'),
      operationOf('business', 'listCustodyWallets'),
    );
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
    await served.page.screenshot({ path: join(reports, 'console-refused.png') });
  });
});

describe('the addresses npm start really started', () => {
  const documented = defaultBaseUrl();
  const bodyText = () => served.page.locator('body').innerText();

  it("are the running sandbox's on the landing page and in the guides, never the documented port", async () => {
    for (const path of ['/', '/guides/first-call.html']) {
      await served.page.goto(`${served.site}${path}`, { waitUntil: 'networkidle' });
      const text = await bodyText();
      expect(text, path).toContain(served.sandbox);
      if (served.sandbox !== documented) expect(text, path).not.toContain(documented);
    }
  });

  it("are the running sandbox's in a reference's sample", async () => {
    const doc = bundleOf(SANDBOX_FAMILY);
    const entry = operationOf(SANDBOX_FAMILY, 'getClock');
    await served.page.goto(`${served.site}/${pageOf(SANDBOX_FAMILY)}`, { waitUntil: 'networkidle' });
    await served.page.evaluate(
      (route) => {
        window.location.hash = route;
      },
      redocRoute(String(entry.operation.tags?.[0] ?? doc.info.title), entry.operationId),
    );
    await expect.poll(bodyText, { timeout: 15_000 }).toContain(`process.env.SANDBOX_URL ?? '${served.sandbox}'`);
  });
});
