// What the service makes of a refusal: the guides' pattern around orThrow.
import { ApiError } from 'ramp-api';

export type Refusal = { refused: true; status: number; reason: string };

export function refusalOf(e: unknown): Refusal {
  if (e instanceof ApiError && e.status === 422) {
    const body = e.body as { error?: unknown; message?: unknown } | undefined;
    return { refused: true, status: 422, reason: String(body?.error ?? body?.message ?? 'invalid') };
  }
  if (e instanceof ApiError && (e.status === 403 || e.status === 404))
    return { refused: true, status: e.status, reason: e.message };
  throw e;
}
