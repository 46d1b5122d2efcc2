// The sandbox's database: a tiny interface over PGlite (embedded PostgreSQL, the default) that node-postgres
// can implement too, so the same migrations and SQL run on PostgreSQL 15. SQL here and in the resources keeps
// to what both PGlite (PostgreSQL 18) and PostgreSQL 15 run.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type SandboxLogger, stderrLogger } from '../core/logger.js';
import { createMaintenance, type Maintenance, statementBytes } from './pglite-maintenance.js';
import { isSelect, rememberedSelects } from './pglite-reads.js';
import { createStatementRunner } from './pglite-statements.js';

export { approximateBytes } from './pglite-reads.js';

export interface Sql {
  /** Rows of one statement, with `$1`... parameters. */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** A transaction's statements: `query`, and `script` for a migration file. */
export interface Tx extends Sql {
  /**
   * Runs `text`, any number of statements, as one script (PGlite's exec, PostgreSQL's simple-query protocol),
   * without parameters and without splitting it: what a migration file holds.
   */
  script(text: string): Promise<void>;
}

export interface Db extends Sql {
  /**
   * For reads (GET handlers): the same answers as `query`. On PGlite, which only this process can change,
   * repeated selects are answered from memory until the next write, which empties that memory; on a
   * PostgreSQL server another instance could write, so there it is `query` itself, nothing cached.
   */
  reads: Sql;
  /**
   * True when other processes can change the data (a PostgreSQL server that several sandbox instances share):
   * nothing read from it may then be kept in memory between requests (tokens, the clock).
   */
  shared: boolean;
  /**
   * PGlite only: a number that changes whenever a write starts or ends, so something derived from reads made
   * while it stayed the same is current until it changes. Undefined on a shared server.
   */
  generation?: () => number;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A folder for PGlite's files; created when missing. */
  dataDir?: string;
  /** Nothing on disk (PGlite in memory). */
  memory?: boolean;
  /**
   * The digest of the schema the store will be given (./migrate.ts): a new store starts from the build's
   * snapshot when the snapshot was made for that schema. Without it, PGlite runs initdb. A promise lets a caller
   * open the store while the module that knows the schema still loads.
   */
  schemaDigest?: string | Promise<string>;
}

/** PGlite on `options`' store, started from the build's snapshot where there is one for its schema. */
async function startPglite(options: DbOptions) {
  // A new store starts from the build's snapshot: in memory, its files are written into PGlite's file system
  // (read while PGlite itself loads); a folder PostgreSQL has not been initialised in gets it unpacked first.
  // Without one, PGlite runs initdb.
  const { readSnapshot, snapshotFilesystem, unpackSnapshot } = await import('./snapshot.js');
  const fromSnapshot = async (digest: string | undefined) =>
    digest === undefined
      ? undefined
      : options.memory
        ? readSnapshot(digest)
        : existsSync(join(options.dataDir!, 'PG_VERSION'))
          ? undefined
          : unpackSnapshot(options.dataDir!, digest).then(() => undefined);
  const [{ PGlite, MemoryFS }, snapshot] = await Promise.all([
    import('@electric-sql/pglite'),
    Promise.resolve(options.schemaDigest).then(fromSnapshot),
  ]);
  return PGlite.create({
    ...(options.memory ? {} : { dataDir: options.dataDir! }),
    ...(snapshot ? { fs: snapshotFilesystem(MemoryFS, PGlite.paths.PGDATA, snapshot) } : {}),
    startParams: [
      ...PGlite.defaultStartParams,
      // PostgreSQL's default of 128 MB of shared buffers is zeroed at every start and held for the store's
      // life, and a new store's data is far smaller; pages beyond them are read back from its files. In memory
      // those files are in the process too, so a page read back costs a copy, and the start zeroes only 4 MB.
      ...['-c', `shared_buffers=${options.memory ? '4MB' : '32MB'}`],
      // In memory, nothing outlives the process, so a commit need not wait for its WAL to be flushed: a commit
      // is still a commit (seen by every later statement), for less CPU per write. A --data folder
      // keeps PostgreSQL's default: what was answered 201 is on disk.
      ...(options.memory ? ['-c', 'synchronous_commit=off'] : []),
      // The write-ahead log is kept to two 16 MiB segments between checkpoints (PostgreSQL's least; its default
      // is 1 GB): in memory it is held in the process, on disk it is what the --data reserve must hold.
      ...['-c', 'max_wal_size=32MB', '-c', 'min_wal_size=32MB'],
    ],
  });
}

type Pglite = Awaited<ReturnType<typeof startPglite>>;
type Statements = ReturnType<typeof createStatementRunner>;
type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * PGlite has one connection: a query from one request must never land inside another request's transaction, so
 * every statement and transaction takes its turn.
 */
function takingTurns(): Exclusive {
  let turn: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work, work);
    turn = run.catch(() => undefined);
    return run;
  };
}

/**
 * A statement in one exchange with PGlite (./pglite-statements.ts); one with a parameter only PGlite's own
 * serializers know (an array, an object) through PGlite's `query`.
 */
function directSql(pg: Pglite, statements: Statements): Sql {
  return {
    query: <Row>(text: string, params?: unknown[]) =>
      statements.run<Row>(text, params) ?? pg.query<Row>(text, params).then((result) => result.rows),
  };
}

/**
 * begin, the work, commit: each a statement of PGlite's one session, which runs one transaction at a time.
 * The begin goes in the same exchange as the transaction's first statement.
 */
function pgliteTransaction(pg: Pglite, statements: Statements, direct: Sql, maintenance: Maintenance) {
  return async <T>(work: (tx: Tx) => Promise<T>): Promise<T> => {
    let begun = false;
    let sent = 0;
    const tx: Tx = {
      query: <Row>(text: string, params?: unknown[]) => {
        const bytes = statementBytes(text, params);
        sent += bytes;
        maintenance.wrote(bytes);
        if (begun) return direct.query<Row>(text, params);
        begun = true;
        return (
          statements.run<Row>(text, params, 'begin') ??
          statements.simple('begin').then(() => direct.query<Row>(text, params))
        );
      },
      script: async (text) => {
        if (!begun) await statements.simple('begin');
        begun = true;
        await statements.simple(text);
      },
    };
    try {
      const result = await work(tx);
      // A statement that failed and was caught inside `work` left the transaction aborted: commit rolls it back.
      if (begun && (await statements.simple('commit')) === 'ROLLBACK')
        throw new Error('The transaction was rolled back: one of its statements failed.');
      await pg.syncToFs();
      return result;
    } catch (error) {
      if (begun) {
        await statements.simple('rollback').catch(() => undefined);
        maintenance.rolledBack(sent);
      }
      throw error;
    }
  };
}

export async function openPglite(options: DbOptions): Promise<Db> {
  if (!options.memory && !options.dataDir) throw new Error('openPglite needs `dataDir` or `memory: true`.');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const [pg, pglite] = await Promise.all([startPglite(options), import('@electric-sql/pglite')]);
  const statements = createStatementRunner(pg, pglite);
  const exclusive = takingTurns();
  const direct = directSql(pg, statements);
  const maintenance = createMaintenance((text) => statements.simple(text));
  const transaction = pgliteTransaction(pg, statements, direct, maintenance);
  const { query, reads, writing, generation } = rememberedSelects(exclusive, direct, maintenance);
  return {
    query,
    reads,
    shared: false,
    generation,
    transaction: (work) => writing(() => transaction(work)),
    close: () => exclusive(() => pg.close()),
  };
}

/**
 * The PostgreSQL server of a `databaseUrl` could not be used at start: names the server (`host:port`, never the
 * user or password) and the reason (a system error code such as ECONNREFUSED, or the server's own message).
 */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
  readonly server: string;
  readonly reason: string;
  constructor(databaseUrl: string, cause: unknown) {
    let server = 'the server';
    try {
      const url = new URL(databaseUrl);
      server = `${url.hostname || 'localhost'}:${url.port || '5432'}`;
    } catch {
      // named as "the server"
    }
    const error = cause as { code?: string; message?: string; errors?: { code?: string }[] };
    // node-postgres gives a system error its code (ECONNREFUSED); an AggregateError (IPv4 and IPv6 tried) holds it inside.
    const code = error?.code ?? error?.errors?.find((e) => e.code)?.code;
    const reason = code && /^E[A-Z]+$/.test(code) ? `(${code})` : `(${String(error?.message ?? cause).split('\n')[0]})`;
    super(
      code && /^E[A-Z]+$/.test(code)
        ? `cannot reach PostgreSQL at ${server} ${reason}`
        : `PostgreSQL at ${server} refused the sandbox ${reason}`,
    );
    this.server = server;
    this.reason = reason;
  }
}

/** A PostgreSQL server (15 or later) through node-postgres: the same migrations and SQL as PGlite. */
export async function openPostgres(connectionString: string, logger: SandboxLogger = stderrLogger()): Promise<Db> {
  const { default: pg } = await import('pg');
  // A server that does not take a connection within 5 s counts as down (a 503) instead of holding the request.
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle pooled connection that the server ends (a restart, a failover, pg_terminate_backend) is dropped
  // from the pool by node-postgres, which then reports it here; unheard, it would crash the process. The next
  // query opens a fresh connection.
  pool.on('error', (error) =>
    logger.error(
      `[sandbox] PostgreSQL closed an idle connection (${(error as { code?: string }).code ?? error.message}); it will be reopened.`,
    ),
  );
  // Statements are sent unnamed: a named one breaks behind a transaction-mode pooler (PgBouncer), and fails
  // once per connection with 0A000 after another instance's migration changes a table it selects `*` from.
  const query = async <Row>(
    runner: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> },
    text: string,
    params?: unknown[],
  ) => (await runner.query(text, params)).rows as Row[];
  // A pooled connection the server ended while it sat idle can be handed out before node-postgres has heard of
  // it: a statement that certainly did nothing on it (a select, or a transaction's `begin`) is tried once more on
  // another connection, so a restart of the server costs no answer once it is back.
  const direct: Sql = {
    query: async (text, params) => {
      try {
        return await query(pool, text, params);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || !isSelect(text)) throw error;
        return query(pool, text, params);
      }
    },
  };
  /**
   * A connection with a transaction begun. While checked out, a connection the server ends emits 'error' on the
   * client itself (the pool listens only to idle ones); the statement under way fails with it, which is the error
   * that counts, and `broken` keeps it so the connection is destroyed rather than pooled again.
   */
  const begin = async (retry = true) => {
    const client = await pool.connect();
    const held: { client: typeof client; broken?: Error; onError: (error: Error) => void } = {
      client,
      onError: (error) => {
        held.broken = error;
      },
    };
    client.on('error', held.onError);
    try {
      await client.query('begin');
      return held;
    } catch (error) {
      client.off('error', held.onError);
      client.release(error instanceof Error ? error : true);
      if (!retry || !isDatabaseUnavailable(error)) throw error;
      return begin(false);
    }
  };
  return {
    ...direct,
    reads: direct,
    shared: true,
    async transaction(work) {
      const held = await begin();
      const { client } = held;
      try {
        const result = await work({
          query: (text, params) => query(client, text, params),
          // Without parameters, node-postgres sends the simple query, which may hold several statements.
          script: async (text) => void (await client.query(text)),
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', held.onError);
        // A broken connection is destroyed, not returned to the pool for the next transaction.
        client.release(held.broken);
      }
    },
    close: () => pool.end(),
  };
}

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** SQLSTATE classes and codes of a server that is down, starting, stopping or out of connections. */
const UNAVAILABLE_STATES = /^(08|57P0[1-4]|53300|55000|58000|58030)/;
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether `error` says the database could not be reached or went away (a PostgreSQL server stopped or
 * restarting, a connection it ended, a closed PGlite): the request may succeed later, so it is answered 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  const text = typeof message === 'string' ? message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end|PGlite is closed/i.test(
    text,
  );
}

/**
 * Whether `error` is PostgreSQL's refusal of a value (SQLSTATE class 22, data exception: a text it cannot
 * convert, a number or date out of its range). Handlers check what they store; this is the net under them.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
