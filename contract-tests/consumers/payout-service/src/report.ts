// A payout as a line of the daily report: a function typed with the description's own type.
import type { components } from 'ramp-api/v1';

export function formatPayout(payout: components['schemas']['Payout']): string {
  return `${payout.amount} ${payout.currency}`;
}
