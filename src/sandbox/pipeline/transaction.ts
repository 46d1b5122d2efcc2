// Stage 6, the transaction: the operation's handler runs inside one transaction for a write (committed before
// its answer is sent) and on the store's reads for a read, whose answer is kept until the next write, within a
// bound in bytes.
import type { Route } from '../contract/router.js';
import type { Answer, AnyHandler, HandlerContext } from '../core/handler.js';
import type { Db, Sql } from '../store/db.js';

/** What was sent for a read, as it is sent again: its status and its JSON text. */
interface SentText {
  status: number;
  text: string;
}

/**
 * An answer of a handler. A read's answer, once checked against the description and serialized, is offered
 * to `keep`; a kept answer comes back with `sent` set instead.
 */
export interface KeptAnswer {
  status: number;
  body: unknown;
  sent?: SentText;
  keep?: (sent: SentText) => void;
}

/** How many read answers are kept at most; the memory is emptied when it is full. */
const KEPT_ANSWERS = 2000;
/**
 * How many bytes of answers are kept at most (their text counted at 2 bytes a character, as V8 may hold it,
 * and their keys); the memory is emptied when one more would pass it. An answer over a quarter of it is not kept.
 */
const KEPT_ANSWER_BYTES = 32 * 1024 * 1024;
const LARGEST_KEPT = KEPT_ANSWER_BYTES / 4;

export type RunHandler = (
  route: Route,
  handler: AnyHandler,
  context: (sql: Sql) => HandlerContext,
  cacheKey: string,
) => Promise<KeptAnswer>;

export function createTransactions(db: Db): RunHandler {
  const kept = new Map<Route, Map<string, { generation: number; sent: SentText }>>();
  let keptCount = 0;
  let keptBytes = 0;
  function keep(route: Route, key: string, entry: { generation: number; sent: SentText }): void {
    const bytes = 2 * (entry.sent.text.length + key.length) + 100;
    if (bytes > LARGEST_KEPT) return;
    if (keptCount >= KEPT_ANSWERS || keptBytes + bytes > KEPT_ANSWER_BYTES) {
      kept.clear();
      keptCount = 0;
      keptBytes = 0;
    }
    let byKey = kept.get(route);
    if (!byKey) {
      byKey = new Map();
      kept.set(route, byKey);
    }
    const before = byKey.get(key);
    if (before) keptBytes -= 2 * (before.sent.text.length + key.length) + 100;
    else keptCount++;
    byKey.set(key, entry);
    keptBytes += bytes;
  }
  return async (route, handler, context, cacheKey) => {
    if (route.entry.method !== 'get') {
      const result: Answer = await db.transaction((tx) => handler(context(tx)));
      result.committed?.();
      return { status: result.status, body: result.body };
    }
    // A read's answer depends on its tenant, path and documented query and on the data only (GET handlers read
    // no clock and no header): on PGlite it is kept until the next write, like the rows it was made from.
    const generation = db.generation?.();
    const known = generation === undefined ? undefined : kept.get(route)?.get(cacheKey);
    if (known && known.generation === generation)
      return { status: known.sent.status, body: undefined, sent: known.sent };
    const result = await handler(context(db.reads));
    const answer: KeptAnswer = { status: result.status, body: result.body };
    if (generation !== undefined && db.generation?.() === generation && result.keep !== false)
      answer.keep = (sent) => {
        if (db.generation?.() === generation) keep(route, cacheKey, { generation, sent });
      };
    return answer;
  };
}
