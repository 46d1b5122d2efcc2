// Identifiers a client chooses (`external_user_id`, `externalWalletId`) share one namespace with every record
// the sandbox keeps, the tenants' own clientIds included : one that names any record already, of any
// tenant or of the sandbox itself, is refused as taken, so a chosen ID can never alias another record (a user
// whose ID was another tenant's clientId shared that client's balance). The tables are read from the schema:
// every table whose `id` is a uuid, so a new resource is covered without a list to keep.
import type { CallContext } from '../core/handler.js';

/** The tables, read once per sandbox (its store's schema does not change while it runs). */
async function recordTables({ sql, instance }: Pick<CallContext, 'sql' | 'instance'>): Promise<string[]> {
  instance.recordTables ??= (
    await sql.query<{ table_name: string }>(
      `select table_name from information_schema.columns
        where table_schema = current_schema() and column_name = 'id' and data_type = 'uuid' order by table_name`,
    )
  ).map((r) => r.table_name);
  return instance.recordTables;
}

/** Whether `id` already names a record of any kind, of any tenant. */
export async function identifierTaken(ctx: Pick<CallContext, 'sql' | 'instance'>, id: string): Promise<boolean> {
  const names = await recordTables(ctx);
  const { sql } = ctx;
  const rows = await sql.query(
    `select 1 from (${names.map((t) => `select id from ${t} where id = $1`).join(' union all ')}) taken limit 1`,
    [id],
  );
  return rows.length > 0;
}
