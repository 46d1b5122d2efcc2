// The gate with the example consumers' usage files (contract-tests/consumers/): a crafted breaking change to a
// field a consumer reads names it with the file:line of the read; the same change to a field none reads says
// "no known consumer"; a newly required request field flags the consumer that builds its body at run time;
// the policy; the list of what nobody uses; and bad usage files refused by name. The command itself, as a process
// (its exit status and lines), is compat.command.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, OpenApiDocument } from '../../src/client/lookup/index.js';
import { serializeUsage, type UsageFile } from '../../src/client/usage/format.js';
import { compareDocuments } from '../../src/client/usage/rules.js';
import { readBundleJson } from '../../src/testing/repo.js';
import { EXAMPLE_CONSUMERS, exampleConsumerUsages } from '../../src/testing/usage-project.js';
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

const removeField = (schema: string, field: string) => (doc: JsonObject) => {
  const target = doc.components.schemas[schema];
  delete target.properties[field];
  target.required = (target.required ?? []).filter((name: string) => name !== field);
};

describe('the gate names the consumers a change breaks', () => {
  it('a response field the payout service reads: its file:line', () => {
    const report = gate('v1', removeField('Payout', 'id'));
    expect(verdict(report.text, 'id: field removed')).toBe(
      `breaks payout-service (${siteOf('payout-service', 'src/payouts.ts', 'id: data.id')})`,
    );
  });

  it('the same change to a field nobody reads: no known consumer', () => {
    const report = gate('v1', removeField('Payout', 'paymentMethod'));
    expect(verdict(report.text, 'paymentMethod: field removed')).toBe('no known consumer');
  });

  it('a response field the KYC onboarding app reads', () => {
    const report = gate('v1', removeField('KycLink', 'url'));
    expect(verdict(report.text, 'url: field removed')).toBe(
      `breaks kyc-onboarding (${siteOf('kyc-onboarding', 'src/kyc-link.ts', 'data?.url')})`,
    );
  });

  it('a Business API field the payout service reads through a path-based call', () => {
    const report = gate('business', removeField('CustodyWalletBalance', 'balance'));
    expect(verdict(report.text, 'balance: field removed')).toBe(
      `breaks payout-service (${siteOf('payout-service', 'src/balance.ts', 'data?.balance')})`,
    );
  });

  it('a newly required request field: the consumer whose body is built at run time', () => {
    const report = gate('v1', (doc) => {
      const request = doc.components.schemas.RegisterUserRequest;
      request.properties.nationality = { type: 'string' };
      request.required.push('nationality');
    });
    expect(verdict(report.text, 'nationality: required field added')).toBe(
      `breaks kyc-onboarding (${siteOf('kyc-onboarding', 'src/register.ts', "v1.POST('/api/v1/users/register'")})`,
    );
  });

  it('a tightened field of a body built at run time: may break, with the reason', () => {
    const report = gate('v1', (doc) => {
      doc.components.schemas.RegisterUserRequest.properties.email.maxLength = 10;
    });
    const call = siteOf('kyc-onboarding', 'src/register.ts', "v1.POST('/api/v1/users/register'");
    const key = siteOf('kyc-onboarding', 'src/register.ts', 'body[field] = value');
    expect(verdict(report.text, 'email')).toBe(
      `may break kyc-onboarding (${call}: the body is built at run time (a computed key at ${key}))`,
    );
  });

  it('an event removed: the webhook listener that handles it', () => {
    const report = gate('v1', (doc) => {
      delete doc.webhooks['user.created'];
    });
    expect(verdict(report.text, 'event removed')).toBe(
      `breaks webhook-listener (${siteOf('webhook-listener', 'src/server.ts', "'user.created'")})`,
    );
  });

  it('a value added to a response enum: the consumer reading the field', () => {
    const report = gate('v1', (doc) => {
      doc.components.schemas.CreatedPayout.allOf[1].properties.status.enum.push('PROCESSING');
    });
    expect(verdict(report.text, 'enum value(s) PROCESSING added')).toBe(
      `breaks payout-service (${siteOf('payout-service', 'src/payouts.ts', 'status: data.status')})`,
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
      doc.components.schemas.RegisterUserRequest.properties.email.maxLength = 10;
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

  it('refuses a usage file of another format version', async () => {
    const other = { ...JSON.parse(serializeUsage(usages[0]!)), formatVersion: 1 };
    await expect(read({ 'a.json': JSON.stringify(other) })).rejects.toThrow(
      /a\.json is a usage file of format version 1; this ramp-api reads version 2\.$/,
    );
  });

  it('refuses a malformed file', async () => {
    const files = { 'good.json': serializeUsage(usages[0]!), 'bad.json': '{"formatVersion": 2,' };
    await expect(read(files)).rejects.toThrow(/bad\.json is not a JSON usage file/);
  });
});
