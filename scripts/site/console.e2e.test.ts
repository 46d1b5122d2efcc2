// The references' console in Debian's Chromium, over the site `npm start` serves, driven by role and accessible
// name: every operation of the three descriptions (listed from the bundles) sent to the sandbox with what it
// needs (a tenant made in one click, then the records earlier consoles made: a user, a wallet, an account...)
// and its answer checked; no serious or critical axe-core violation with the console open, nothing loaded from
// outside and no error thrown. The console against mocks and other addresses, and its samples run, are in
// console-samples.e2e.test.ts; what both use is in console-site.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listOperations, type OperationEntry } from '../../src/client/lookup/index.js';
import { bodyExamples } from '../../src/sandbox/contract/lookup.js';
import { allApiFamilies, type OpenApiDocument, readBundle, SANDBOX_FAMILY } from '../openapi/apis.js';
import {
  bundleOf,
  fillBody,
  fillParameter,
  openConsole,
  operationOf,
  reports,
  sendAndRead,
  useConsoleSite,
} from './console-site.js';

const require = createRequire(import.meta.url);
const served = useConsoleSite();

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
    const console_ = await openConsole(served, 'business', doc, listOperations(doc)[0]!);
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
      const console_ = await openConsole(served, family, doc, entry);
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

describe('accessibility and the page', () => {
  it('has no serious or critical axe-core violation with the console open', async () => {
    const console_ = await openConsole(served, 'v1', bundleOf('v1'), operationOf('v1', 'registerUser'));
    await console_.getByRole('radio', { name: /The local sandbox/ }).check();
    await served.page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await served.page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: any[] }> } }).axe;
      const result = await axe.run({ include: [['#ramp-console']] });
      return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
    });
    writeFileSync(join(reports, 'console-axe.json'), `${JSON.stringify(violations, null, 2)}\n`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('loaded nothing from outside the machine and threw no error', () => {
    expect(served.outside).toEqual([]);
    expect(served.pageErrors).toEqual([]);
  });
});
