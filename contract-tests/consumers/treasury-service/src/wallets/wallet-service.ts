// The custody wallets of the service's users: opened on request, listed newest first, summed by network.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { Wallet, WalletStatus, WalletSummary } from '../api/types.js';
import { type Refusal, refusalOf } from '../util/errors.js';
import type { AuditLog } from '../util/logger.js';
import { newest, newestFirst } from '../util/sort.js';
import { type Network, walletRequest } from './wallet-request.js';

export class WalletService {
  private wallets: Wallet[] = [];
  lastOpened: WalletSummary | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly clientId: string,
    private readonly log: AuditLog,
  ) {}

  async refresh(userId: string): Promise<Wallet[]> {
    this.wallets = await orThrow(
      this.clients.business.listCustodyWallets({ params: { path: { clientId: this.clientId, userId } } }),
    );
    return newestFirst(this.wallets);
  }

  async open(userId: string, token: string, network: Network): Promise<WalletSummary | Refusal> {
    try {
      const created = await orThrow(
        this.clients.business.createCustodyWallet({
          params: { path: { clientId: this.clientId, userId } },
          body: walletRequest(token, network),
        }),
      );
      const { id, wallet, status } = created;
      this.lastOpened = { id, wallet, status };
      this.log.info('wallet opened', { id, network: created.supportedNetwork.name });
      return this.lastOpened;
    } catch (e) {
      return refusalOf(e);
    }
  }

  newestWallet(): Wallet | undefined {
    return newest(this.wallets);
  }

  byNetwork(): Record<string, string[]> {
    return this.wallets.reduce<Record<string, string[]>>((groups, w) => {
      const network = w.supportedNetwork.name;
      groups[network] = [...(groups[network] ?? []), w.id];
      return groups;
    }, {});
  }

  withStatus(status: WalletStatus): string[] {
    return this.wallets.filter((w) => w.status === status).map((w) => w.wallet);
  }
}
