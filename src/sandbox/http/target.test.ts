// The request target: split into path and query as it is when plain, normalized by the URL parser when odd,
// refused with 400 when it cannot be parsed.
import { describe, expect, it } from 'vitest';
import { REFUSALS, Refusal } from '../core/refusals.js';
import { requestTarget } from './target.js';

describe('the request target', () => {
  it('splits a plain target into its path and query as it is', () => {
    const target = requestTarget('/api/v1/users?page=2&size=5');
    expect([target.pathname, target.searchParams.get('page'), target.searchParams.get('size')]).toEqual([
      '/api/v1/users',
      '2',
      '5',
    ]);
  });

  it('normalizes dot segments and empty segments as the URL parser does', () => {
    expect(requestTarget('/api/v1/../token').pathname).toBe('/api/token');
    expect(requestTarget('/api/./infoClient#part').pathname).toBe('/api/infoClient');
  });

  it('refuses a target the URL parser cannot parse with 400', () => {
    let refused: unknown;
    try {
      requestTarget('//');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ status: 400, code: REFUSALS.malformedTarget.code });
  });
});
