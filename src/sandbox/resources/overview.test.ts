// getTenantState's `record`: each list keeps only the record whose own ID it is (the journeys read an outcome
// by it: openapi/workflows/triggers.arazzo.yaml runs it against both stores).
import { describe, expect, it } from 'vitest';
import { onlyRecord } from './overview.js';

describe("a tenant's state read for one record", () => {
  const state = {
    tenant: { clientId: 'c-1' },
    users: [{ userId: 'u-1' }, { userId: 'u-2' }],
    balances: [
      { userId: 'u-1', currency: 'COP' },
      { userId: 'c-1', currency: 'COP' },
    ],
    bankAccounts: [{ accountId: 'a-1', userId: 'u-1' }],
    externalWallets: [{ externalWalletId: 'e-1', userId: 'u-1' }],
    payouts: [{ id: 'p-1', userId: 'u-1' }, { id: 'u-1-not-an-id-match' }],
  };

  it('keeps in each list the records whose own ID it is, not those that only name it', () => {
    expect(onlyRecord(state, 'u-1')).toEqual({
      tenant: { clientId: 'c-1' },
      users: [{ userId: 'u-1' }],
      balances: [{ userId: 'u-1', currency: 'COP' }],
      bankAccounts: [],
      externalWallets: [],
      payouts: [],
    });
    expect(onlyRecord(state, 'a-1').bankAccounts).toEqual([{ accountId: 'a-1', userId: 'u-1' }]);
    expect(onlyRecord(state, 'e-1').externalWallets).toHaveLength(1);
    expect(onlyRecord(state, 'p-1').payouts).toEqual([{ id: 'p-1', userId: 'u-1' }]);
  });

  it('an ID of no record leaves every list empty and the tenant as it is', () => {
    const none = onlyRecord(state, 'nothing');
    expect(none.tenant).toEqual({ clientId: 'c-1' });
    expect([none.users, none.balances, none.bankAccounts, none.payouts].every((l) => l.length === 0)).toBe(true);
  });
});
