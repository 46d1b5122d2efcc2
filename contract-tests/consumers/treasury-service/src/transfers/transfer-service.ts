// Transfers between a user's custody wallets: made, listed and summed.
import { orThrow } from 'ramp-api';
import type { Clients } from '../api/clients.js';
import type { Transfer, TransferView } from '../api/types.js';
import type { AuditLog } from '../util/logger.js';
import { summarize, type TransferSummary, toView } from './summary.js';
import { type TransferOrder, transferBody } from './transfer-body.js';

export class TransferService {
  private history: Transfer[] = [];

  constructor(
    private readonly clients: Clients,
    private readonly clientId: string,
    private readonly log: AuditLog,
  ) {}

  async send(userId: string, order: TransferOrder): Promise<string> {
    const made = await orThrow(
      this.clients.business.createWalletTransfer({
        params: { path: { clientId: this.clientId, userId } },
        body: transferBody(order),
      }),
    );
    const id = String(made.id);
    this.log.info('transfer sent', { id, amount: order.amount });
    return id;
  }

  async load(userId: string, status?: string): Promise<TransferView[]> {
    const query = status ? { status } : {};
    this.history = await orThrow(
      this.clients.business.listWalletTransfers({ params: { path: { clientId: this.clientId, userId }, query } }),
    );
    return this.history.map(toView);
  }

  summary(): TransferSummary {
    return summarize(this.history);
  }

  find(id: string): Transfer | undefined {
    return this.history.find((t) => t.id === id);
  }
}
