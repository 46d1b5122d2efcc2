// The treasury service: one object holding the clients and the services built on them.
import { type Clients, makeClients } from './api/clients.js';
import { payableAccounts } from './banks/accounts.js';
import { bankCount, bankLookup } from './banks/bank-directory.js';
import type { TreasuryConfig } from './config.js';
import { OnRampService } from './onramps/onramp-service.js';
import { PayoutService } from './payouts/payout-service.js';
import { TransferService } from './transfers/transfer-service.js';
import { directory } from './users/user-directory.js';
import { AuditLog } from './util/logger.js';
import { balancesOf } from './wallets/balances.js';
import { WalletService } from './wallets/wallet-service.js';

export interface DailyReport {
  wallets: number;
  funded: number;
  paid: number;
  transfers: number;
  banks: number;
}

export class Treasury {
  readonly clients: Clients;
  readonly log = new AuditLog();
  readonly wallets: WalletService;
  readonly transfers: TransferService;
  readonly payouts: PayoutService;
  readonly onRamps: OnRampService;

  constructor(readonly config: TreasuryConfig) {
    this.clients = makeClients(config);
    this.wallets = new WalletService(this.clients, config.clientId, this.log);
    this.transfers = new TransferService(this.clients, config.clientId, this.log);
    this.payouts = new PayoutService(this.clients, this.log);
    this.onRamps = new OnRampService(this.clients, this.log);
  }

  accounts(userId?: string) {
    return payableAccounts(this.clients, this.config.clientId, userId);
  }

  directory() {
    return directory(this.clients, this.config.clientId);
  }

  bankName(code: string) {
    return bankLookup(this.clients).then((lookup) => lookup(code));
  }

  async dailyReport(userId: string): Promise<DailyReport> {
    const [wallets, , banks] = await Promise.all([
      this.wallets.refresh(userId),
      this.transfers.load(userId),
      bankCount(this.clients),
    ]);
    const balances = await balancesOf(
      this.clients,
      this.config.clientId,
      userId,
      wallets.map((w) => w.id),
    );
    const funded = balances.filter((line) => 'balance' in line && line.balance > 0).length;
    return {
      wallets: wallets.length,
      funded,
      paid: this.payouts.totalPaid(),
      transfers: this.transfers.summary().count,
      banks,
    };
  }
}
