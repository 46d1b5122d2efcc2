// The gate with the example consumers' usage files (contract-tests/consumers/): a crafted breaking change to a
// field a consumer reads names it with the file:line of the read; the same change to a field none reads says
// "no known consumer"; a newly required request field flags the consumer that builds its body at run time;
// the sandbox's control API compared with its own baseline, and a usage file built against other descriptions
// than the baseline named; the policy; the list of what nobody uses; and bad usage files (or JSON files that are
// none) refused by name. The command itself, as a process (its exit status and lines), is compat.command.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, OpenApiDocument } from '../../src/client/lookup/index.js';
import { compareDocuments } from '../../src/client/usage/compare.js';
import { serializeUsage, USAGE_FORMAT_VERSION, type UsageFile } from '../../src/client/usage/usage-file.js';
import { visibleText } from '../../src/client/usage/visible-text.js';
import { CONTROL_CHARACTER, TERMINAL_ATTACK, TERMINAL_ATTACKS } from '../../src/testing/hostile-text.js';
import { readBundleJson } from '../../src/testing/repo.js';
import {
  EXAMPLE_CONSUMERS,
  exampleConsumerUsages,
  extractTestUsage,
  makeUsageProject,
} from '../../src/testing/usage-project.js';
import { compareWithBaselines } from './baseline.js';
import { consumerGate, type FailOn, readConsumers } from './consumers.js';

/** `src/file.ts:N`: the first line of an example consumer's file that holds `text`. */
function siteOf(consumer: string, file: string, text: string): string {
  const index = readFileSync(join(EXAMPLE_CONSUMERS, consumer, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${text} is not in ${consumer}/${file}`);
  return `${file}:${index + 1}`;
}

let usages: UsageFile[];
beforeAll(async () => {
  usages = await exampleConsumerUsages();
}, 120_000);

/** The gate's report for one family after `edit` changed a copy of its current bundle. */
function gate(family: string, edit: (doc: JsonObject) => void, failOn: FailOn = 'any') {
  const base = readBundleJson<OpenApiDocument>(family);
  const next = structuredClone(base) as JsonObject;
  edit(next);
  const changes = compareDocuments(base, next as OpenApiDocument);
  return consumerGate([{ api: family, changes, current: next as OpenApiDocument }], usages, failOn);
}

/** The line after the BREAKING line that contains `what`: whom it breaks. */
function verdict(text: string, what: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.includes('BREAKING') && line.includes(what));
  expect(at, `a BREAKING line with ${what} in:\n${text}`).toBeGreaterThanOrEqual(0);
  return lines[at + 1]!.trim();
}

/** The part of a verdict that names `consumer` (`payout-service (src/a.ts:3)`), other consumers' parts aside. */
function partFor(line: string, consumer: string): string | undefined {
  return line
    .replace(/^breaks /, '')
    .split('; ')
    .find((part) => part.startsWith(`${consumer} (`));
}

const removeField = (schema: string, field: string) => (doc: JsonObject) => {
  const target = doc.components.schemas[schema];
  delete target.properties[field];
  target.required = (target.required ?? []).filter((name: string) => name !== field);
};

describe('the gate names the consumers a change breaks', () => {
  it("each change's line ends with the id of the rule that found it", () => {
    const report = gate('v1', removeField('Payout', 'id'));
    expect(report.text).toMatch(
      /^ {2}BREAKING {2}POST .*\(createPayout\): response 201: id: field removed \[response-field-removed\]$/m,
    );
  });

  it('a parameter made required breaks every call of the operation, those that leave it out included', () => {
    const call = {
      family: 'business',
      operationId: 'listBankAccounts',
      method: 'get',
      path: '/api/accounts/{clientId}',
      calls: ['src/accounts.ts:7'],
      parameters: ['path clientId'],
      requestFields: [],
      responseFields: [],
      statuses: [],
    };
    const caller: UsageFile = {
      formatVersion: USAGE_FORMAT_VERSION,
      consumer: 'no-owner-filter',
      descriptions: {},
      operations: [call],
      events: [],
      otherFields: [],
    };
    const base = readBundleJson<OpenApiDocument>('business');
    const next = structuredClone(base) as JsonObject;
    next.components.parameters.AccountOwnerId.required = true;
    const changes = compareDocuments(base, next as OpenApiDocument);
    const report = consumerGate([{ api: 'business', changes, current: next as OpenApiDocument }], [caller], 'any');
    expect(verdict(report.text, 'parameter query userId is now required')).toBe(
      'breaks no-owner-filter (src/accounts.ts:7)',
    );
  });

  it('a response field the payout service reads: its file:line', () => {
    const report = gate('v1', removeField('Payout', 'id'));
    expect(partFor(verdict(report.text, 'id: field removed'), 'payout-service')).toBe(
      `payout-service (${siteOf('payout-service', 'src/payouts.ts', 'id: data.id')})`,
    );
  });

  it('the same change to a field nobody reads: no known consumer', () => {
    const report = gate('v1', removeField('Payout', 'paymentMethod'));
    expect(verdict(report.text, 'paymentMethod: field removed')).toBe('no known consumer');
  });

  it('a response field the KYC onboarding app reads', () => {
    const report = gate('v1', removeField('KycLink', 'url'));
    expect(partFor(verdict(report.text, 'url: field removed'), 'kyc-onboarding')).toBe(
      `kyc-onboarding (${siteOf('kyc-onboarding', 'src/kyc-link.ts', 'data?.url')})`,
    );
  });

  it('a Business API field the payout service reads through a path-based call', () => {
    const report = gate('business', removeField('CustodyWalletBalance', 'balance'));
    expect(partFor(verdict(report.text, 'balance: field removed'), 'payout-service')).toBe(
      `payout-service (${siteOf('payout-service', 'src/balance.ts', 'data?.balance')})`,
    );
  });

  it('a newly required request field: the consumer whose body is built at run time', () => {
    const report = gate('v1', (doc) => {
      const request = doc.components.schemas.RegisterUserRequest;
      request.properties.nationality = { type: 'string' };
      request.required.push('nationality');
    });
    expect(partFor(verdict(report.text, 'nationality: required field added'), 'kyc-onboarding')).toBe(
      `kyc-onboarding (${siteOf('kyc-onboarding', 'src/register.ts', "v1.POST('/api/v1/users/register'")})`,
    );
  });

  it('a tightened field of a body built at run time: may break, with the reason', () => {
    // A field the treasury service's registration does not send (it is seen to send the others).
    const report = gate('v1', (doc) => {
      doc.components.schemas.RegisterUserRequest.properties.identity_verification_provider.maxLength = 10;
    });
    const call = siteOf('kyc-onboarding', 'src/register.ts', "v1.POST('/api/v1/users/register'");
    const key = siteOf('kyc-onboarding', 'src/register.ts', 'body[field] = value');
    expect(verdict(report.text, 'identity_verification_provider')).toBe(
      `may break kyc-onboarding (${call}: the body is built at run time (a computed key at ${key}))`,
    );
  });

  it('an event removed: the webhook listener that handles it', () => {
    const report = gate('v1', (doc) => {
      delete doc.webhooks['user.created'];
    });
    expect(partFor(verdict(report.text, 'event removed'), 'webhook-listener')).toBe(
      `webhook-listener (${siteOf('webhook-listener', 'src/server.ts', "'user.created'")})`,
    );
  });

  it('a value added to a response enum: the consumer reading the field', () => {
    const report = gate('v1', (doc) => {
      doc.components.schemas.CreatedPayout.allOf[1].properties.status.enum.push('PROCESSING');
    });
    expect(partFor(verdict(report.text, 'enum value(s) PROCESSING added'), 'payout-service')).toBe(
      `payout-service (${siteOf('payout-service', 'src/payouts.ts', 'status: data.status')})`,
    );
  });
});

/** A team's tests that make a sandbox tenant and read its v1 credentials, built against `digest` (written by hand). */
const sandboxTests = (digest: string): UsageFile => ({
  formatVersion: USAGE_FORMAT_VERSION,
  consumer: 'team-tests',
  descriptions: { sandbox: digest },
  operations: [
    {
      family: 'sandbox',
      operationId: 'createTenant',
      method: 'post',
      path: '/sandbox/tenants',
      calls: ['test/setup.ts:6'],
      parameters: [],
      requestFields: [],
      responseFields: [{ pointer: '/components/schemas/Tenant/properties/v1Credentials', sites: ['test/setup.ts:9'] }],
      statuses: [],
    },
  ],
  events: [],
  otherFields: [],
});

describe("the sandbox's control API is compared with its baseline like the service's", () => {
  /** The gate's results for a copy of the sandbox bundle without v1Credentials in Tenant's `required`. */
  const withoutRequiredCredentials = () => {
    const next = readBundleJson<JsonObject>('sandbox');
    const tenant = next.components.schemas.Tenant;
    tenant.required = tenant.required.filter((name: string) => name !== 'v1Credentials');
    return compareWithBaselines(new Map([['sandbox', next as OpenApiDocument]]));
  };

  it('Tenant.v1Credentials no longer required: BREAKING, naming the team whose tests read it', () => {
    const { results, missing } = withoutRequiredCredentials();
    expect(missing).toEqual([]);
    const report = consumerGate(results, [...usages, sandboxTests(results[0]!.baselineDigest)], 'consumers');
    expect(report.text).toContain('sandbox: 1 breaking');
    const line = verdict(report.text, 'v1Credentials: no longer always present');
    expect(partFor(line, 'team-tests')).toBe('team-tests (test/setup.ts:9)');
    // The example consumer whose tests start their tenant as the guides do, read from its own code.
    expect(partFor(line, 'payout-service')).toBe(
      `payout-service (${siteOf('payout-service', 'test/sandbox.ts', 'body: tenant.v1Credentials')})`,
    );
    expect(report.failing).toBe(1);
  });

  it('the same, with the usage file `npx ramp-api usage` writes for tests that call the sandbox', async () => {
    const project = makeUsageProject('tenant-tests', {
      'src/tenant.ts': `import { createSandboxClient } from 'ramp-api/sandbox';
const sandbox = createSandboxClient({ baseUrl: 'http://127.0.0.1:9' });
export async function newTenant() {
  const { data } = await sandbox.createTenant({ body: { name: 'team' } });
  return data?.v1Credentials;
}
`,
    });
    try {
      const { usage } = await extractTestUsage(project);
      const { results } = withoutRequiredCredentials();
      expect(usage.descriptions).toEqual({ sandbox: results[0]!.baselineDigest });
      const report = consumerGate(results, [usage], 'consumers');
      expect(verdict(report.text, 'v1Credentials: no longer always present')).toBe(
        'breaks tenant-tests (src/tenant.ts:5)',
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);

  it('says, in one line, which consumer was built against other descriptions than the baseline', () => {
    const { results } = withoutRequiredCredentials();
    const other = `sha256:${'0'.repeat(64)}`;
    const lines = consumerGate(results, [sandboxTests(other)], 'any').text.split('\n');
    const short = results[0]!.baselineDigest.slice(0, 'sha256:'.length + 12);
    expect(lines).toContain(
      `team-tests was built against other sandbox descriptions (sha256:000000000000) than the baseline's (${short}).`,
    );
    const same = consumerGate(results, [sandboxTests(results[0]!.baselineDigest)], 'any').text;
    expect(same).not.toContain('was built against other');
  });
});

describe('the token calls the clients make', () => {
  it('a newly required field of the token request names the consumers that exchange credentials', () => {
    const report = gate('v1', (doc) => {
      const request = doc.components.schemas.ClientTokenRequest;
      request.properties = { ...(request.properties ?? {}), audience: { type: 'string' } };
      request.required = [...(request.required ?? []), 'audience'];
    });
    const line = verdict(report.text, 'audience: required field added');
    expect(partFor(line, 'payout-service')).toContain(siteOf('payout-service', 'test/sandbox.ts', 'createClientToken'));
    // The token call a client made with auth: { credentials } makes for its user, at the line that creates it.
    expect(partFor(line, 'treasury-service')).toBe(
      `treasury-service (${siteOf('treasury-service', 'src/api/clients.ts', 'createV1Client({')})`,
    );
  });
});

describe('the policy', () => {
  it('--fail-on any fails on a breaking change nobody is known to use; --fail-on consumers does not', () => {
    expect(gate('v1', removeField('Payout', 'paymentMethod'), 'any').failing).toBe(1);
    expect(gate('v1', removeField('Payout', 'paymentMethod'), 'consumers').failing).toBe(0);
    expect(gate('v1', removeField('Payout', 'id'), 'consumers').failing).toBe(1);
  });

  it('--fail-on seen fails on a change seen to break a known consumer, not on one that only may break one', () => {
    const mayBreak = (doc: JsonObject) => {
      doc.components.schemas.RegisterUserRequest.properties.identity_verification_provider.maxLength = 10;
    };
    expect(gate('v1', mayBreak, 'consumers').failing).toBe(1);
    expect(gate('v1', mayBreak, 'seen').failing).toBe(0);
    expect(gate('v1', removeField('Payout', 'id'), 'seen').failing).toBe(1);
  });
});

it('lists what no known consumer uses: operations, events, fields', () => {
  const { text } = gate('v1', () => {});
  expect(text).toContain('operation GET /api/v1/admin/banks (listAdminBanks)');
  expect(text).toContain('event wallet.created');
  expect(text).toContain('field /components/schemas/Payout/properties/paymentMethod');
  expect(text).not.toContain('field /components/schemas/Payout/properties/id\n');
  expect(text).not.toContain('operation POST /api/v1/admin/fiats/{user_id}/payout');
  expect(text).not.toContain('event user.created');
});

describe('the consumers folder (`--consumers DIR`; as a process in compat.command.test.ts)', () => {
  /** What readConsumers makes of a folder holding `files`. */
  const read = async (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'consumers-'));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      return await readConsumers(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('refuses two usage files of one consumer', async () => {
    const file = serializeUsage(usages[0]!);
    await expect(read({ 'a.json': file, 'b.json': file })).rejects.toThrow(
      /b\.json names the consumer kyc-onboarding again/,
    );
  });

  it('refuses a usage file of an older format version, saying how to make it again', async () => {
    const other = { ...JSON.parse(serializeUsage(usages[0]!)), formatVersion: 1 };
    await expect(read({ 'a.json': JSON.stringify(other) })).rejects.toThrow(
      /a\.json is a usage file of format version 1; this ramp-api reads version 2: make it again with `npx ramp-api usage`\.$/,
    );
  });

  it('names a JSON file that is not a usage file as such (a package.json, an empty object)', async () => {
    const good = serializeUsage(usages[0]!);
    await expect(read({ 'good.json': good, 'package.json': '{"name": "x", "version": "1.0.0"}' })).rejects.toThrow(
      /package\.json is not a usage file \(no formatVersion: write one with `npx ramp-api usage`\)\.$/,
    );
    await expect(read({ 'empty.json': '{}' })).rejects.toThrow(/empty\.json is not a usage file \(no formatVersion/);
    await expect(read({ 'list.json': '[]' })).rejects.toThrow(/list\.json is not a usage file \(no formatVersion/);
  });

  it('refuses a malformed file', async () => {
    const files = { 'good.json': serializeUsage(usages[0]!), 'bad.json': '{"formatVersion": 2,' };
    await expect(read(files)).rejects.toThrow(/bad\.json is not a JSON usage file/);
  });
});

describe('usage files whose names would forge the gate or act on the terminal', () => {
  const forged = (usage: UsageFile): UsageFile => ({
    ...usage,
    consumer: `${usage.consumer}${TERMINAL_ATTACK}`,
    operations: usage.operations.map((o) => ({
      ...o,
      responseFields: o.responseFields.map((f) => ({
        ...f,
        sites: f.sites.map((site) => site.replace(/:(\d+)$/, `${TERMINAL_ATTACKS.hyperlink}:$1`)),
      })),
    })),
  });

  it('shows them escaped: no control character, and the verdict is the gate’s own', () => {
    const payout = usages.find((u) => u.consumer === 'payout-service')!;
    const base = readBundleJson<OpenApiDocument>('v1');
    const next = structuredClone(base) as JsonObject;
    removeField('Payout', 'id')(next);
    const changes = compareDocuments(base, next as OpenApiDocument);
    const { text } = consumerGate([{ api: 'v1', changes, current: next as OpenApiDocument }], [forged(payout)], 'any');
    expect(text.replace(/\n/g, '')).not.toMatch(CONTROL_CHARACTER);
    expect(
      text.split('\n').filter((line) => line.includes('No breaking change') && !line.includes('payout-service')),
    ).toEqual([]);
    const name = `payout-service${visibleText(TERMINAL_ATTACK)}`;
    expect(text.split('\n')[0]).toBe(`Known consumers: ${name}. Policy: --fail-on any.`);
    const hyperlink = visibleText(TERMINAL_ATTACKS.hyperlink);
    expect(verdict(text, 'id: field removed')).toBe(
      `breaks ${name} (${siteOf('payout-service', 'src/payouts.ts', 'id: data.id').replace(':', `${hyperlink}:`)})`,
    );
  });
});
