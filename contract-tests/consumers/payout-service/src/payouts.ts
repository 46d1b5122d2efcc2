// Pays a user out: the operationId call, with the statuses the service tells apart.
import { v1 } from './clients.js';
import { formatPayout } from './report.js';

export type PayoutOutcome = { ok: true; id: string; status: string; line: string } | { ok: false; reason: string };

export async function payOut(userId: string, amount: number, destinationId: string): Promise<PayoutOutcome> {
  const { data, response } = await v1.createPayout({
    params: { path: { user_id: userId } },
    body: { amount, currency: 'COP', destinationId },
  });
  if (response.status === 400) return { ok: false, reason: 'insufficient funds' };
  if (response.status === 422) return { ok: false, reason: 'refused' };
  if (!data) return { ok: false, reason: `HTTP ${response.status}` };
  return { ok: true, id: data.id, status: data.status, line: formatPayout(data) };
}
