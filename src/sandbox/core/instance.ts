// What belongs to one running sandbox rather than to a module: two sandboxes in one process share nothing here.
import type { Sql } from '../store/db.js';
import type { Clock } from './clock.js';
import type { Tenant } from './tenant.js';

/** The events one sandbox knows: those its v1 description lists, and a check of a payload against them. */
export interface EventCatalog {
  /** The event names the v1 description's `webhooks:` lists. */
  documented(): string[];
  /** Problems of `payload` against the schema of `event`; throws for an event the description does not list. */
  check(event: string, payload: unknown): string[];
  /**
   * Records `event` for `tenantId`, and a delivery to each endpoint that receives it, inside the transaction of
   * `ctx.sql` (so an event exists exactly when its change was committed). Resolves with the envelope.
   */
  emit(
    ctx: { sql: Sql; clock: Pick<Clock, 'now'> },
    tenantId: string,
    event: string,
    data: Record<string, unknown>,
  ): Promise<{ id: string; event: string; createdAt: string }>;
}

interface CachedToken {
  tenant: Tenant;
  family: string;
  expiresAt: number;
  cachedAt: number;
}

/** Tokens looked up recently, bounded in entries and in bytes: past either bound, it is emptied. */
export interface TokenCache {
  get(token: string): CachedToken | undefined;
  set(token: string, entry: CachedToken): void;
  clear(): void;
  /** About how many bytes the entries take (their text at 2 bytes a character, and a little for each). */
  readonly bytes: number;
  readonly size: number;
}

const TOKEN_CACHE_ENTRIES = 10_000;
const TOKEN_CACHE_BYTES = 8 * 1024 * 1024;

export function createTokenCache(maxEntries = TOKEN_CACHE_ENTRIES, maxBytes = TOKEN_CACHE_BYTES): TokenCache {
  const entries = new Map<string, CachedToken>();
  let bytes = 0;
  const sizeOf = (token: string, entry: CachedToken) =>
    200 + 2 * (token.length + entry.tenant.id.length + entry.tenant.name.length + entry.family.length);
  return {
    get: (token) => entries.get(token),
    set(token, entry) {
      const size = sizeOf(token, entry);
      if (size > maxBytes / 4) return;
      const before = entries.get(token);
      if (before) {
        bytes -= sizeOf(token, before);
        entries.delete(token);
      }
      if (entries.size >= maxEntries || bytes + size > maxBytes) this.clear();
      entries.set(token, entry);
      bytes += size;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return entries.size;
    },
  };
}

export interface InstanceState {
  /** Tokens this sandbox looked up recently (see ../resources/tenants.ts). */
  tokens: TokenCache;
  /** The tables whose `id` names a record, read once from this sandbox's store (see ../resources/identifiers.ts). */
  recordTables?: string[];
  events: EventCatalog;
  /** Aborted once the sandbox is asked to stop: long work (a pass of due outcomes) ends early and is undone. */
  stopping: AbortSignal;
}

export function createInstanceState(events: EventCatalog, stopping: AbortSignal): InstanceState {
  return { tokens: createTokenCache(), events, stopping };
}
