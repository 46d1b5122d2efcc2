// The fields made fresh per send, as the descriptions give them, and fresh values that keep to their schema.
import { describe, expect, it } from 'vitest';
import { freshen, freshenText, freshValue } from '../../src/console/fresh.js';
import { allApiFamilies, readBundle } from '../openapi/apis.js';
import { freshFields, takenIdentifiers } from './fresh-fields.js';

const docs = allApiFamilies().map((api) => ({ family: api.name, doc: readBundle(api) }));

describe('the fields a send makes fresh', () => {
  it('are those the descriptions say must be unique or are refused as taken', () => {
    const fields = freshFields(docs);
    expect(takenIdentifiers(docs.find((d) => d.family === 'sandbox')!.doc)).toEqual([
      'external_user_id',
      'externalWalletId',
    ]);
    expect(fields.registerUser).toEqual([{ pointer: '/external_user_id', format: 'uuid' }]);
    expect(fields.createIntegrationEndpoint).toEqual([{ pointer: '/name' }]);
    expect(Object.keys(fields).sort()).toEqual(['createExternalWallet', 'createIntegrationEndpoint', 'registerUser']);
  });

  it('get a new value on every send, keeping the format and the length limit', () => {
    const uuid = freshValue({ pointer: '/id', format: 'uuid' }, 'x');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const first = freshValue({ pointer: '/name' }, 'payout-hook') as string;
    const second = freshValue({ pointer: '/name' }, first) as string;
    expect(first).toMatch(/^payout-hook-[0-9a-z]{6}$/);
    expect(second).toMatch(/^payout-hook-[0-9a-z]{6}$/);
    expect(second).not.toBe(first);
    expect(freshValue({ pointer: '/name', maxLength: 10 }, 'a-long-endpoint-name')).toMatch(/^a-l-[0-9a-z]{6}$/);
  });

  it('change only the fields a body carries, in a copy, and leave text that is not JSON', () => {
    const body = { name: 'hook', url: 'https://example.invalid' };
    const fresh = freshen(body, [{ pointer: '/name' }, { pointer: '/absent' }]) as Record<string, unknown>;
    expect(body.name).toBe('hook');
    expect(fresh.name).toMatch(/^hook-[0-9a-z]{6}$/);
    expect(fresh).not.toHaveProperty('absent');
    expect(freshenText('{ not json', [{ pointer: '/name' }])).toBe('{ not json');
  });
});
