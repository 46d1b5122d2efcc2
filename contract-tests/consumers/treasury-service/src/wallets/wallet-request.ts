// The body of a new custody wallet: built here, sent by the wallet service.
import type { BusinessSchemas } from '../api/types.js';

export type Network = NonNullable<BusinessSchemas['CreateCustodyWalletRequest']['network']>;

export function walletRequest(token: string, network: Network) {
  return { token: token.toUpperCase(), network };
}
