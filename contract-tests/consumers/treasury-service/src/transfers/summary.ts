// A day's transfers in a few numbers: counts per status and the total sent.
import type { Transfer, TransferView } from '../api/types.js';
import { countBy, totalSent } from '../util/money.js';

export interface TransferSummary {
  count: number;
  total: number;
  perStatus: Record<string, number>;
  statuses: string[];
}

export function summarize(transfers: Transfer[]): TransferSummary {
  const perStatus = countBy(transfers, 'status');
  return { count: transfers.length, total: totalSent(transfers), perStatus, statuses: Object.keys(perStatus).sort() };
}

export function toView({ isGroup: _group, parentId: _parent, trackType: _track, ...view }: Transfer): TransferView {
  return view;
}
