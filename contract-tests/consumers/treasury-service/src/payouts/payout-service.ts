// Payouts to users' accepted bank accounts, with the statuses the service tells apart.
import type { Clients } from '../api/clients.js';
import type { Payout } from '../api/types.js';
import type { AuditLog } from '../util/logger.js';
import { formatCop } from '../util/money.js';
import { payoutBody } from './payout-body.js';

export type PayoutResult =
  | { kind: 'sent'; id: Payout['id']; status: Payout['status']; line: string }
  | { kind: 'insufficient' | 'forbidden' | 'refused'; detail: string }
  | { kind: 'failed'; status: number };

export class PayoutService {
  readonly sent: Payout[] = [];
  lastResult: PayoutResult | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly log: AuditLog,
  ) {}

  async pay(userId: string, amount: number, accountId: string): Promise<PayoutResult> {
    const res = await this.clients.v1.createPayout({
      params: { path: { user_id: userId } },
      body: payoutBody(amount, accountId),
    });
    this.lastResult = this.resultOf(res);
    return this.lastResult;
  }

  private resultOf(res: Awaited<ReturnType<Clients['v1']['createPayout']>>): PayoutResult {
    switch (res.response.status) {
      case 201: {
        const payout = res.data!;
        this.sent.push(payout);
        this.log.info('payout sent', { id: payout.id, amount: payout.amount });
        return {
          kind: 'sent',
          id: payout.id,
          status: payout.status,
          line: `${formatCop(payout.amount)} ${payout.currency}`,
        };
      }
      case 400:
        return { kind: 'insufficient', detail: JSON.stringify(res.error) };
      case 403:
        return { kind: 'forbidden', detail: String((res.error as { message?: unknown }).message ?? '') };
      case 422:
        return { kind: 'refused', detail: String((res.error as { error?: unknown }).error ?? '') };
      default:
        return { kind: 'failed', status: res.response.status };
    }
  }

  totalPaid(): number {
    return this.sent.reduce((sum, payout) => sum + payout.amount, 0);
  }
}
