// Balances of several custody wallets at once, by path, with the statuses the service tells apart.
import type { Clients } from '../api/clients.js';

export type BalanceLine = { walletId: string; balance: number; token: string } | { walletId: string; missing: true };

async function balanceOf(clients: Clients, clientId: string, userId: string, walletId: string): Promise<BalanceLine> {
  const res = await clients.business.GET('/api/b2b2b/{clientId}/wallet/custody/{userId}/{walletId}/balance', {
    params: { path: { clientId, userId, walletId } },
  });
  switch (res.response.status) {
    case 200:
      return { walletId, balance: Number(res.data?.balance ?? 0), token: res.data?.token ?? '' };
    case 404:
      return { walletId, missing: true };
    default:
      throw new Error(`balance of ${walletId}: HTTP ${res.response.status}`);
  }
}

export function balancesOf(clients: Clients, clientId: string, userId: string, walletIds: string[]) {
  return Promise.all(walletIds.map((walletId) => balanceOf(clients, clientId, userId, walletId)));
}
