// What PGlite's reads remember (./db.ts's openPglite): results of selects, kept until the next write, bounded in
// entries and in bytes. Statements run one at a time on PGlite's one connection, so a select that ran while no
// write started or ended is current until the next one.
import { type Maintenance, statementBytes } from './pglite-maintenance.js';

/** Rows of one statement (./db.ts's Sql). */
interface Statements {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}
/** Runs `work` in the store's turn (./db.ts's takingTurns). */
type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * About how many bytes `value` takes in memory, at most: 2 bytes a character of text (V8 may hold a string
 * that way), 8 a number, and a little for each object, array and property. Stops counting past `limit`.
 */
export function approximateBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const visit = (item: unknown): void => {
    if (total > limit) return;
    if (typeof item === 'string') total += 16 + 2 * item.length;
    else if (item === null || typeof item !== 'object') total += 8;
    else if (item instanceof Date) total += 32;
    else if (Array.isArray(item)) {
      total += 16 + 8 * item.length;
      for (const inner of item) visit(inner);
    } else {
      total += 32;
      for (const [key, inner] of Object.entries(item)) {
        total += 16 + 2 * key.length;
        visit(inner);
      }
    }
  };
  visit(value);
  return total;
}

/** Bytes of select results PGlite's reads remember at most (approximateBytes); a result over a quarter is not kept. */
const REMEMBERED_BYTES = 32 * 1024 * 1024;

export const isSelect = (text: string) => /^\s*select\b/i.test(text);

/**
 * Results of selects, kept until the next write. Statements run one at a time (takingTurns), so a select that
 * ran while `generation` stayed the same saw no write start or end, and its rows are current until the next
 * one. The remembered rows are frozen (a handler that writes to one throws) and each caller gets its own array
 * of them, so nothing a handler does reaches the memory; copying them per read cost more. By statement text (a
 * literal in the handlers: its hash is computed once), then by parameters. At most 1,000 results and
 * REMEMBERED_BYTES: past either, the memory is emptied.
 */
export function rememberedSelects(exclusive: Exclusive, direct: Statements, maintenance: Maintenance) {
  const remembered = new Map<string, Map<string, unknown[]>>();
  let rememberedCount = 0;
  let rememberedBytes = 0;
  let generation = 0;
  const forget = () => {
    if (rememberedCount) remembered.clear();
    rememberedCount = 0;
    rememberedBytes = 0;
  };
  const written = () => {
    generation++;
    forget();
  };
  /** Runs a write in its turn: the memory is emptied, and `generation` moves, as it starts and as it ends. */
  const writing = <T>(work: () => Promise<T>): Promise<T> =>
    exclusive(async () => {
      written();
      try {
        return await work();
      } finally {
        written();
        await maintenance.run();
      }
    });
  /** Keeps `result` of `text` with the parameters `key`, unless it is too big or the memory is full. */
  const remember = (text: string, key: string, result: unknown[], bytes: number) => {
    if (rememberedCount >= 1000 || rememberedBytes + bytes > REMEMBERED_BYTES) forget();
    let byParams = remembered.get(text);
    if (!byParams) {
      byParams = new Map();
      remembered.set(text, byParams);
    }
    if (!byParams.has(key)) {
      byParams.set(key, deepFreeze(structuredClone(result)));
      rememberedCount++;
      rememberedBytes += bytes;
    }
  };
  /** A select in its turn, its result remembered when no write started or ended while it ran. */
  const selectRemembering = <Row>(text: string, params: unknown[] | undefined, key: string) =>
    exclusive(async () => {
      const before = generation;
      const result = await direct.query<Row>(text, params);
      const bytes =
        generation === before ? approximateBytes(result, REMEMBERED_BYTES / 4) + 2 * (text.length + key.length) : 0;
      if (generation === before && bytes <= REMEMBERED_BYTES / 4) remember(text, key, result, bytes);
      return result;
    });
  const query: Statements['query'] = (text, params) => {
    if (isSelect(text)) return exclusive(() => direct.query(text, params));
    maintenance.wrote(statementBytes(text, params));
    return writing(() => direct.query(text, params));
  };
  const reads: Statements = {
    query: async <Row>(text: string, params?: unknown[]) => {
      const byParams = remembered.get(text);
      if (!byParams && !isSelect(text)) return query<Row>(text, params);
      const key = params?.length ? JSON.stringify(params) : '';
      const known = byParams?.get(key);
      if (known) return known.slice() as Row[];
      return selectRemembering<Row>(text, params, key);
    },
  };
  return { query, reads, writing, generation: () => generation };
}
