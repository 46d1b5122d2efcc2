// The control API's description: valid OpenAPI 3.1, examples that validate, and exactly the promised
// operationIds: they are the method names of the control API's typed client (`ramp-api/sandbox`), which users'
// tests and this repository's contract recipes, load test and dashboard call by name.
import { describe, expect, it } from 'vitest';
import { checkExamples } from '../../scripts/checks/example-check.js';
import { openApi31Problems } from '../../scripts/checks/openapi-validity.js';
import { allApiFamilies, readBundle, SANDBOX_FAMILY } from '../../scripts/openapi/apis.js';
import { listOperations } from '../../src/client/lookup/index.js';

const api = allApiFamilies().find((a) => a.name === SANDBOX_FAMILY);
if (!api) throw new Error('redocly.yaml declares no sandbox API');
const doc = readBundle(api);

/** The control API's operations: renaming one breaks every caller, so these names must not change. */
const PROMISED = [
  // Resetting and setting up state: tenants, the review of users and bank accounts, external wallets, funds, the
  // outcome of payouts, on-ramps and transfers, webhooks, tier limits and the clock.
  'resetSandbox',
  'createTenant',
  'approveUser',
  'rejectUser',
  'createBankAccount',
  'acceptBankAccount',
  'rejectBankAccount',
  'createExternalWallet',
  'fundUser',
  'fundWallet',
  'completePayout',
  'rejectPayout',
  'payOnRamp',
  'completeWalletTransfer',
  'cancelWalletTransfer',
  'createBusinessWebhook',
  'setTierLimit',
  'advanceClock',
  // The webhook delivery log: list the deliveries, send one again, send an event on demand.
  'listDeliveries',
  'redeliver',
  'triggerEvent',
  // A rate limit set and lifted on demand, so the contract tests can reach listBanks' inferred 429.
  'setRateLimit',
  'clearRateLimit',
  // The dashboard's reads, the deposit's rejection, and the KYC and checkout pages.
  'listTenants',
  'getTenantState',
  'getClock',
  'listEvents',
  'rejectOnRamp',
  'getKycSession',
  'approveKycSession',
  'rejectKycSession',
  'getCheckout',
  'payCheckout',
  'rejectCheckout',
  // The sandbox's own webhook receiver, for journeys and tests with no server of their own.
  'receiveDelivery',
  // Who answers at an address (`checkSandbox`): another service on the port is told apart from the sandbox.
  'getSandbox',
];

/** Operations that say only what the sandbox is (nothing of a tenant): they take no token. */
const PUBLIC_OPERATIONS = ['getSandbox'];

/** Operations behind a link's own page (KYC, checkout): the link's ID is their credential, so they take no token. */
const LINK_OPERATIONS = [
  'getKycSession',
  'approveKycSession',
  'rejectKycSession',
  'getCheckout',
  'payCheckout',
  'rejectCheckout',
];

describe('the sandbox control API description', () => {
  it('is a valid OpenAPI 3.1.0 document whose examples validate (Ajv 2020-12)', async () => {
    expect(await openApi31Problems(doc)).toEqual([]);
    const report = checkExamples(doc);
    expect(report.problems).toEqual([]);
    expect(report.checked.length).toBeGreaterThan(10);
  });

  it("has exactly the promised operationIds, all under /sandbox/, each taking the admin token and, unless it reaches every tenant, a tenant's own token; a link's operations and getSandbox take none", () => {
    const operations = listOperations(doc);
    expect(operations.map((o) => o.operationId).sort()).toEqual([...PROMISED].sort());
    const schemes = doc.components?.securitySchemes as Record<string, Record<string, unknown>>;
    expect(
      Object.fromEntries(
        Object.entries(schemes).map(([name, s]) => [name, [s.type, s.scheme, s['x-sandbox-credential']]]),
      ),
    ).toEqual({
      adminToken: ['http', 'bearer', 'admin'],
      businessToken: ['http', 'bearer', 'business'],
      v1Token: ['http', 'bearer', 'v1'],
    });
    const global = ['resetSandbox', 'createTenant', 'advanceClock', 'setRateLimit', 'clearRateLimit'];
    for (const o of operations) {
      expect(o.path === '/sandbox' || o.path.startsWith('/sandbox/'), o.operationId).toBe(true);
      if (PUBLIC_OPERATIONS.includes(o.operationId) || o.operationId === 'receiveDelivery') {
        // getSandbox says only what this is; receiveDelivery is called by the delivery worker, as a team's
        // receiver is (authType NONE): neither takes a token.
        expect(o.operation.security, o.operationId).toEqual([]);
        continue;
      }
      if (LINK_OPERATIONS.includes(o.operationId)) {
        expect(o.operation.security, o.operationId).toEqual([]);
        expect(o.path, o.operationId).toMatch(/^\/sandbox\/(kyc-sessions\/\{sessionId\}|checkouts\/\{checkoutId\})/);
        continue;
      }
      const accepted = (o.operation.security as Record<string, unknown>[]).map((r) => Object.keys(r).join('+'));
      expect(accepted, o.operationId).toEqual(
        global.includes(o.operationId) ? ['adminToken'] : ['adminToken', 'businessToken', 'v1Token'],
      );
      expect(Object.keys(o.operation.responses), o.operationId).toContain('401');
    }
  });

  it("marks the sandbox's own choices as its own, and claims nothing for the service", () => {
    expect(doc.info.description).toContain("## The sandbox's own choices");
    expect(doc.info.description).toContain('This API belongs to the sandbox, not to the service.');
  });
});
