// The banks the service pays to, looked up by code through a closure over the list fetched once.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { BusinessSchemas } from '../api/types.js';

type Bank = BusinessSchemas['Bank'];

export async function bankLookup(clients: Clients): Promise<(code: string) => string | undefined> {
  const banks: Bank[] = await orThrow(clients.business.listBanks());
  const active = banks.filter((bank) => bank.status === 'active' || bank.status === 'ACTIVE');
  return (code) => (active.length ? active : banks).find((bank) => bank.code === code)?.name;
}

export async function bankCount(clients: Clients): Promise<number> {
  const banks = await orThrow(clients.business.listBanks());
  return banks.length;
}
