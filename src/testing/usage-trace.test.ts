// The trace's parts that need no consumer run (the whole trace runs in scripts/compat/usage-trace.command.test.ts):
// which stack frame is a consumer's site, where an answer's schema is, when a usage file covers a read, and the
// breaking change made to a field.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../client/lookup/index.js';
import { nodeAt } from '../client/usage/pointers.js';
import type { UsageFile } from '../client/usage/usage-file.js';
import { readBundleJson } from './repo.js';
import { breakField, NEW_ENUM_VALUE } from './usage-mutations.js';
import { EXAMPLE_CONSUMERS } from './usage-project.js';
import { consumerSite, payloadPlace, responsePlace, type TracedRead } from './usage-trace.js';
import { covers } from './usage-trace-run.js';

const frame = (file: string, line: number) => `    at fn (${file}:${line}:7)`;
const stack = (...frames: string[]) => ['Error', ...frames].join('\n');

describe('consumerSite', () => {
  const src = join(EXAMPLE_CONSUMERS, 'payout-service', 'src', 'payouts.ts');
  it('is the first frame in an example consumer, library frames above it skipped', () => {
    const site = consumerSite(stack(frame('/repo/src/client/core/client.ts', 3), frame(src, 15)));
    expect(site).toEqual({ consumer: 'payout-service', site: 'src/payouts.ts:15' });
  });

  it('is none when that frame is in tests its tsconfig.json leaves out, or when no frame is in a consumer', () => {
    const test = join(EXAMPLE_CONSUMERS, 'treasury-service', 'test', 'a.test.ts');
    const treasury = join(EXAMPLE_CONSUMERS, 'treasury-service', 'src', 'treasury.ts');
    expect(consumerSite(stack(frame(test, 4), frame(treasury, 15)))).toBeUndefined();
    expect(consumerSite(stack(frame('/repo/src/client/core/client.ts', 3)))).toBeUndefined();
  });
});

describe('consumerSite, tests included', () => {
  it("is a frame in the consumer's tests when its tsconfig.json includes them", () => {
    const test = join(EXAMPLE_CONSUMERS, 'payout-service', 'test', 'sandbox.ts');
    expect(consumerSite(stack(frame(test, 4)))).toEqual({ consumer: 'payout-service', site: 'test/sandbox.ts:4' });
  });
});

describe('where an answer is described', () => {
  it("starts at the schema of the operation's response for the status, or the payload's", () => {
    expect(responsePlace('v1', 'createPayout', 201)?.pointer).toBe(
      '/paths/~1api~1v1~1admin~1fiats~1{user_id}~1payout/post/responses/201/content/application~1json/schema',
    );
    expect(responsePlace('v1', 'createPayout', 422)?.pointer).toBe(
      '/components/responses/PayoutRefused/content/application~1json/schema',
    );
    expect(responsePlace('v1', 'createPayout', 299)).toBeUndefined();
    expect(payloadPlace('v1', 'user.created')?.pointer).toBe(
      '/webhooks/user.created/post/requestBody/content/application~1json/schema',
    );
  });
});

describe('covers', () => {
  const read: TracedRead = {
    consumer: 'c',
    family: 'v1',
    operation: 'createOnRamp',
    kind: 'response',
    status: '201',
    pointer: '/components/schemas/OnRampOperation/properties/id',
    trail: ['/components/schemas/CreateOnRampResponse/properties/operation'],
    site: 'src/a.ts:1',
    declarations: ['/components/schemas/OnRampOperation/properties/id'],
  };
  const usage = (fields: { pointer: string; whole?: true }[], operationId = 'createOnRamp'): UsageFile => ({
    formatVersion: 1,
    consumer: 'c',
    descriptions: {},
    operations: [
      {
        family: 'v1',
        operationId,
        method: 'post',
        path: '/p',
        calls: [],
        parameters: [],
        requestFields: [],
        responseFields: fields.map((f) => ({ ...f, sites: [] })),
        statuses: [],
      },
    ],
    events: [],
    otherFields: [],
  });

  it("holds when the operation's fields list the pointer, or mark it or a value the read went through whole", () => {
    expect(covers(usage([{ pointer: read.pointer }]), read)).toBe(true);
    expect(covers(usage([{ pointer: read.trail[0]!, whole: true }]), read)).toBe(true);
  });

  it('fails for a listing without whole on the way, or under another operation', () => {
    expect(covers(usage([{ pointer: read.trail[0]! }]), read)).toBe(false);
    expect(covers(usage([{ pointer: read.pointer }], 'createPayout'), read)).toBe(false);
  });
});

describe('breakField', () => {
  it('adds a value to each enum of a field, or removes it from every part declaring it and from required', () => {
    const doc = readBundleJson<OpenApiDocument>('v1');
    const status = '/components/schemas/CreatedPayout/allOf/1/properties/status';
    expect(breakField(doc, [status, '/components/schemas/Payout/properties/status'])).toBe('enum value added');
    expect((nodeAt(doc, status) as { enum: string[] }).enum).toContain(NEW_ENUM_VALUE);
    expect(breakField(doc, ['/components/schemas/Payout/properties/id'])).toBe('removed');
    const payout = nodeAt(doc, '/components/schemas/Payout') as { properties: object; required: string[] };
    expect([Object.hasOwn(payout.properties, 'id'), payout.required.includes('id')]).toEqual([false, false]);
    expect(breakField(doc, ['/components/schemas/EventPayload/properties/data'])).toBeUndefined();
  });
});
