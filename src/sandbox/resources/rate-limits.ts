// The sandbox's own rate limits (the source shows none): off until `setRateLimit` sets one for an operation
// whose description declares a 429. Fixed windows of sandbox time, counted per operation and per tenant
// (calls without a token share one count). Limits and counts live in the database, so every instance on one
// PostgreSQL applies the same ones; a count is one atomic upsert.
import type { Clock } from '../core/clock.js';
import type { Handlers, Tenant } from '../core/handler.js';
import { refusals, refuse } from '../core/refusals.js';
import type { Sql } from '../store/db.js';

/** The operations that can be limited: those whose description declares a 429. */
export function limitableOperations(
  routes: readonly { entry: { operationId: string; operation: { responses?: object } } }[],
): Set<string> {
  return new Set(routes.filter((r) => '429' in (r.entry.operation.responses ?? {})).map((r) => r.entry.operationId));
}

export function rateLimitHandlers(limitable: Set<string>): Handlers {
  return {
    setRateLimit: async (ctx) => {
      const operationId = ctx.path.operationId!;
      if (!limitable.has(operationId))
        refuse(
          refusals.notLimitable(
            `${operationId} is not an operation that declares a 429 answer, so the sandbox does not rate-limit it.`,
          ),
        );
      const { limit, windowSeconds } = ctx.body as { limit: number; windowSeconds: number };
      await ctx.sql.query(
        `insert into rate_limits (operation_id, max_calls, window_ms) values ($1, $2, $3)
         on conflict (operation_id) do update set max_calls = excluded.max_calls, window_ms = excluded.window_ms`,
        [operationId, limit, windowSeconds * 1000],
      );
      await ctx.sql.query('delete from rate_counts where operation_id = $1', [operationId]);
      return { status: 200, body: { operationId, limit, windowSeconds } };
    },
    clearRateLimit: async (ctx) => {
      await ctx.sql.query('delete from rate_limits where operation_id = $1', [ctx.path.operationId]);
      await ctx.sql.query('delete from rate_counts where operation_id = $1', [ctx.path.operationId]);
      return { status: 204 };
    },
  };
}

/**
 * Counts a call of a limitable operation; throws the 429 refusal once the window's calls are used up.
 * `reads` answers the rule lookup (from memory on PGlite until a write), `sql` takes the count.
 */
export async function countCall(
  db: { reads: Sql; transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> },
  operationId: string,
  tenant: Tenant | null,
  clock: Clock,
): Promise<void> {
  const [rule] = await db.reads.query<{ max_calls: number; window_ms: string | number }>(
    'select max_calls, window_ms from rate_limits where operation_id = $1',
    [operationId],
  );
  if (!rule) return;
  const windowMs = Number(rule.window_ms);
  const now = clock.now().getTime();
  const windowStart = now - (now % windowMs);
  const [row] = await db.transaction((tx) =>
    tx.query<{ calls: number }>(
      `insert into rate_counts (operation_id, caller, window_start, calls) values ($1, $2, $3, 1)
       on conflict (operation_id, caller, window_start) do update set calls = rate_counts.calls + 1 returning calls`,
      [operationId, tenant?.id ?? 'public', windowStart],
    ),
  );
  if (row && row.calls > rule.max_calls) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw refusals.rateLimited(
      `More than ${rule.max_calls} calls of ${operationId} in ${windowMs / 1000} s of sandbox time (a limit set with setRateLimit); try again in ${retryAfter} s.`,
      retryAfter,
    );
  }
}
