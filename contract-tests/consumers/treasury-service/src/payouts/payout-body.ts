// The body of a payout in pesos, from the service's own request to pay.
import type { PayoutDraft } from '../api/types.js';

export function payoutBody(amount: number, destinationId: string, draft: PayoutDraft = {}) {
  return {
    amount: Math.round(amount),
    currency: 'COP',
    destinationId,
    paymentMethod: draft.paymentMethod ?? 'ACH',
  };
}
