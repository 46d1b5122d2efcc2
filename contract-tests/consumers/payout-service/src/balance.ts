// Checks a custody wallet's balance before paying out: the path-based call of the Business API.
import { business } from './clients.js';

export async function hasBalance(clientId: string, userId: string, walletId: string, needed: number): Promise<boolean> {
  const { data } = await business.GET('/api/b2b2b/{clientId}/wallet/custody/{userId}/{walletId}/balance', {
    params: { path: { clientId, userId, walletId } },
  });
  const balance = Number(data?.balance ?? 0);
  return balance >= needed;
}
