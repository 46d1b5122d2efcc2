// Sums and groupings of amounts, typed with the description's own fields.
import type { Transfer } from '../api/types.js';

export function totalSent<T extends Pick<Transfer, 'amountSent'>>(items: T[]): number {
  return items.reduce((sum, { amountSent }) => sum + amountSent, 0);
}

export function countBy<T, K extends keyof T>(items: T[], key: K): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const value = String(item[key]);
    counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}

export const formatCop = (amount: number) => `${amount.toLocaleString('en-US')} COP`;
