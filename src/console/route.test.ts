// The console finds the operation in any address a reference page can be opened with, a malformed one included.
import { describe, expect, it } from 'vitest';
import { operationInHash } from './route.js';

const ids = ['createPayout', 'listBanks'];

describe('operationInHash', () => {
  it('finds the operation of a Redoc route, escaped or not', () => {
    expect(operationInHash('#/Payouts/createpayout', ids)).toBe('createPayout');
    expect(operationInHash('#%2FBanks%2Flistbanks', ids)).toBe('listBanks');
    expect(operationInHash('', ids)).toBeUndefined();
  });

  it.each(['#/Payouts/createpayout/%', '#%E0%A4%A', '#/%ZZ/listbanks', '#\uD800'])(
    'survives the malformed hash %j: no operation, or the one it names, never a throw',
    (hash) => {
      expect(() => operationInHash(hash, ids)).not.toThrow();
      expect([undefined, ...ids]).toContain(operationInHash(hash, ids));
    },
  );

  it('still finds the operation next to a broken escape', () => {
    expect(operationInHash('#/Payouts/createpayout/%', ids)).toBe('createPayout');
  });
});
