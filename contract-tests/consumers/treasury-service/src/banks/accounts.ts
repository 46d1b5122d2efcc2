// The bank accounts a user may be paid to, as the service shows them.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { BankAccount } from '../api/types.js';

export interface AccountLine {
  id: string;
  label: string;
  bank: string;
}

const lineOf = ({ id, accountNickname, accountNumber, bank: { name } }: BankAccount): AccountLine => ({
  id,
  label: `${accountNickname} ****${accountNumber.slice(-4)}`,
  bank: name,
});

export async function payableAccounts(clients: Clients, clientId: string, ownerId?: string): Promise<AccountLine[]> {
  const accounts = await orThrow(
    clients.business.listBankAccounts({
      params: { path: { clientId }, ...(ownerId ? { query: { userId: ownerId } } : {}) },
    }),
  );
  return accounts.filter((account) => account.status === 'accepted').map(lineOf);
}
