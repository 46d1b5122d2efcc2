// The store's schema: the resources' migrations (each resource keeps its own tables' SQL beside its handlers),
// applied once per store and recorded by digest.
import { createHash } from 'node:crypto';
import type { Sql } from './db.js';

export interface Schema {
  /** Each resource's tables, as SQL statements separated by `;`, in the order they are made. */
  migrations: readonly string[];
  /** A digest of the migrations: a store that records the same one has every table already. */
  digest: string;
}

export function schemaOf(migrations: readonly string[]): Schema {
  return { migrations, digest: createHash('sha256').update(migrations.join('\0')).digest('hex') };
}

/** The statements of a migration: split at each `;` outside a dollar-quoted body (a function's). */
export function statements(migration: string): string[] {
  return migration
    .split(/(\$\$[\s\S]*?\$\$)/)
    .reduce<string[]>(
      (parts, piece, i) => {
        if (i % 2) parts[parts.length - 1] += piece;
        else {
          const [first = '', ...rest] = piece.split(';');
          parts[parts.length - 1] += first;
          parts.push(...rest);
        }
        return parts;
      },
      [''],
    )
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/**
 * Creates every table (idempotent: `create ... if not exists`), unless the store records that these very
 * migrations ran (`sandbox_schema`): then a start sends one select instead of every statement (about 0.25 s
 * on PGlite).
 */
export async function migrate(
  db: { transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> },
  schema: Schema,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Several instances on one PostgreSQL may start at once: one migrates at a time.
    await tx.query('select pg_advisory_xact_lock(7301)');
    const [{ present } = { present: false }] = await tx.query<{ present: boolean }>(
      "select to_regclass('sandbox_schema') is not null as present",
    );
    if (present) {
      const [recorded] = await tx.query<{ digest: string }>('select digest from sandbox_schema');
      if (recorded?.digest === schema.digest) return;
    }
    for (const migration of schema.migrations) for (const statement of statements(migration)) await tx.query(statement);
    await tx.query('create table if not exists sandbox_schema (digest text not null)');
    await tx.query('delete from sandbox_schema');
    await tx.query('insert into sandbox_schema (digest) values ($1)', [schema.digest]);
  });
}
