// Stage 6, the transaction: the operation's handler runs inside one transaction for a write (committed before
// its answer is sent) and on the store's reads for a read, whose answer is kept until the next write.
import type { Route } from '../contract/router.js';
import type { Answer, AnyHandler, HandlerContext } from '../core/handler.js';
import type { Db, Sql } from '../store/db.js';

/** An answer kept for a read; `sent` is what was sent for it once checked against the description. */
export interface KeptAnswer {
  status: number;
  body: unknown;
  sent?: { status: number; body: unknown; text: string };
}

/** How many read answers are kept at most; the memory is emptied when it is full. */
const KEPT_ANSWERS = 2000;

export type RunHandler = (
  route: Route,
  handler: AnyHandler,
  context: (sql: Sql) => HandlerContext,
  cacheKey: string,
) => Promise<KeptAnswer>;

export function createTransactions(db: Db): RunHandler {
  const kept = new Map<Route, Map<string, { generation: number; answer: KeptAnswer }>>();
  let keptCount = 0;
  function keep(route: Route, key: string, entry: { generation: number; answer: KeptAnswer }): void {
    if (keptCount >= KEPT_ANSWERS) {
      kept.clear();
      keptCount = 0;
    }
    let byKey = kept.get(route);
    if (!byKey) {
      byKey = new Map();
      kept.set(route, byKey);
    }
    byKey.set(key, entry);
    keptCount++;
  }
  return async (route, handler, context, cacheKey) => {
    if (route.entry.method !== 'get') {
      const result: Answer = await db.transaction((tx) => handler(context(tx)));
      return { status: result.status, body: result.body };
    }
    // A read's answer depends on its tenant, path and query and on the data only (GET handlers read no clock
    // and no header): on PGlite it is kept until the next write, like the rows it was made from.
    const generation = db.generation?.();
    const known = generation === undefined ? undefined : kept.get(route)?.get(cacheKey);
    if (known && known.generation === generation) return known.answer;
    const result = await handler(context(db.reads));
    const answer: KeptAnswer = { status: result.status, body: result.body };
    if (generation !== undefined && db.generation?.() === generation && result.keep !== false)
      keep(route, cacheKey, { generation, answer });
    return answer;
  };
}
