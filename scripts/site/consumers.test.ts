// The known consumers in the docs site: an operation's and an event's reference name the consumers that use
// them and the fields they read, one that nobody uses says so, and the page of what nobody uses lists it.
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/client/lookup/index.js';
import { USAGE_FORMAT_VERSION, type UsageFile } from '../../src/client/usage/usage-file.js';
import { MARKUP_ATTACKS } from '../../src/testing/hostile-text.js';
import { readBundleJson } from '../../src/testing/repo.js';
import { fieldName, unusedPage, withConsumers } from './consumers.js';

const usage: UsageFile = {
  formatVersion: USAGE_FORMAT_VERSION,
  consumer: 'payout-service',
  descriptions: { v1: `sha256:${'0'.repeat(64)}` },
  operations: [
    {
      family: 'v1',
      operationId: 'createPayout',
      method: 'post',
      path: '/api/v1/admin/fiats/{user_id}/payout',
      calls: ['src/payouts.ts:8'],
      parameters: ['path user_id'],
      requestFields: [],
      responseFields: [
        { pointer: '/components/schemas/Payout/properties/id', sites: ['src/payouts.ts:15'] },
        { pointer: '/components/schemas/Payout/properties/status', sites: ['src/payouts.ts:15'], whole: true },
      ],
      statuses: ['422'],
    },
  ],
  events: [
    {
      family: 'v1',
      event: 'user.created',
      handlers: ['src/server.ts:11'],
      payloadFields: [{ pointer: '/components/schemas/EventPayload/properties/userId', sites: ['src/server.ts:12'] }],
    },
  ],
  otherFields: [],
};

const v1 = readBundleJson<OpenApiDocument>('v1');
const described = withConsumers('v1', v1, [usage]) as any;

describe('the references name their known consumers', () => {
  it('an operation: who calls it and the fields each reads', () => {
    expect(described.paths['/api/v1/admin/fiats/{user_id}/payout'].post.description).toMatch(
      /\*\*Known consumers:\*\* payout-service \(reads `id`, `status` \(whole\)\)\.$/,
    );
  });

  it('an event: who handles it and the payload fields each reads', () => {
    expect(described.webhooks['user.created'].post.description).toMatch(
      /\*\*Known consumers:\*\* payout-service \(reads `userId`\)\.$/,
    );
  });

  it('an operation nobody calls says so', () => {
    expect(described.paths['/api/v1/admin/banks'].get.description).toMatch(/\*\*Known consumers:\*\* none\.$/);
  });

  it('leaves the bundle it was given as it was', () => {
    expect(JSON.stringify(v1)).not.toContain('Known consumers');
  });
});

it('names a nested field by its path', () => {
  expect(fieldName('/components/schemas/A/properties/data/properties/list/items/properties/id')).toBe('data.list[].id');
});

it('the page of what nobody uses lists operations, events and fields no consumer uses, and only those', () => {
  const page = unusedPage([{ family: 'v1', doc: v1 }], [usage]);
  expect(page).toContain('<code>GET /api/v1/admin/banks (listAdminBanks)</code>');
  expect(page).toContain('<code>wallet.created</code>');
  expect(page).toContain('<code>/components/schemas/Payout/properties/paymentMethod</code>');
  expect(page).not.toContain('(createPayout)</code>');
  expect(page).not.toContain('<code>user.created</code>');
  expect(page).not.toContain('<code>/components/schemas/Payout/properties/id</code>');
});

describe('a usage file whose names would be markup in the reference', () => {
  const hostile = MARKUP_ATTACKS;
  const PAYOUT = '/components/schemas/Payout/properties/';
  const forged: UsageFile = {
    ...usage,
    consumer: `payout-service\n\n# Forged ${hostile.join(' ')}`,
    operations: usage.operations.map((o) => ({
      ...o,
      responseFields: [
        // A backtick in a property's name, to close the code span the field is shown in (`/` written `~1`).
        ...hostile.map((h) => ({ pointer: `${PAYOUT}a\`${h.replace(/\//g, '~1')}\`b`, sites: ['src/a.ts:1'] })),
        { pointer: `${PAYOUT}\`\`\` <script>alert(1)<~1script>`, sites: ['src/a.ts:2'] },
      ],
    })),
  };
  const description: string = (withConsumers('v1', v1, [forged]) as any).paths['/api/v1/admin/fiats/{user_id}/payout']
    .post.description;
  // The reference renders descriptions with marked, unsanitized: what it makes of them is what the page carries.
  const html = marked.parse(description, { async: false });

  it('renders them as text: no element, no link, no heading', () => {
    for (const element of ['<img', '<script', '<iframe', '<meta', '<a ', '<h1']) expect(html).not.toContain(element);
  });

  it('still names the consumer and each field, in code', () => {
    expect(html).toContain('payout-service\\n\\n# Forged &lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<code>a`&lt;img src=x onerror=alert(1)&gt;`b</code>');
    expect(html).toContain('<code>``` &lt;script&gt;alert(1)&lt;/script&gt;</code>');
  });
});
