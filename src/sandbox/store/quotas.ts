// What one tenant may store: every text of a request at most MAX_TEXT_CHARS characters, and every record kept
// for a tenant counted against TENANT_QUOTA, so that no tenant can grow the sandbox's memory (PGlite in memory
// holds every record in the process) or its disk without bound.

/** The longest text (a field's value or a key) a request body may carry: URLs, names and notes fit. */
export const MAX_TEXT_CHARS = 4096;

/**
 * The records (rows of any table that belongs to a tenant: users, balances, wallets, transfers, bank accounts,
 * external wallets, KYC sessions, on-ramps and their checkouts, payouts, endpoints, business webhooks, events,
 * deliveries, tokens) one tenant may hold, and their bytes as PostgreSQL writes their values out: a test suite
 * makes a few thousand records of a few hundred bytes, far inside both; 64 MiB a tenant keeps a sandbox of a
 * dozen busy tenants within a few hundred MiB of memory.
 */
export const TENANT_QUOTA = { records: 100_000, bytes: 64 * 1024 * 1024 } as const;

/** The tables whose rows belong to a tenant (a `tenant_id` column) and count against its quota. */
const CHARGED_TABLES = [
  'users',
  'balances',
  'custody_wallets',
  'external_wallets',
  'wallet_transfers',
  'bank_accounts',
  'kyc_sessions',
  'on_ramps',
  'on_ramp_checkouts',
  'payouts',
  'business_webhooks',
  'integration_endpoints',
  'sandbox_events',
  'sandbox_deliveries',
  'tokens',
] as const;

/** SQLSTATE of the refusal of a record past its tenant's quota (class RQ: the sandbox's own). */
const QUOTA_EXCEEDED_STATE = 'RQ001';

/**
 * The counters in the tenant's row and the trigger that keeps them: each record inserted adds one, and its bytes,
 * in the same statement (an update of one row by its key: no count over a table), or fails the statement (and
 * its transaction) when the tenant would pass its quota. Runs after every other resource's migration.
 */
export const migration = `
alter table tenants add column if not exists records bigint not null default 0;
alter table tenants add column if not exists record_bytes bigint not null default 0;
create index if not exists tokens_tenant_expiry on tokens (tenant_id, expires_at);
create or replace function sandbox_charge_tenant() returns trigger language plpgsql as $$
begin
  update tenants set records = records + 1, record_bytes = record_bytes + octet_length(new::text)
    where id = new.tenant_id and records < ${TENANT_QUOTA.records}
      and record_bytes + octet_length(new::text) <= ${TENANT_QUOTA.bytes};
  if not found and exists (select 1 from tenants where id = new.tenant_id) then
    raise exception 'tenant over its quota' using errcode = '${QUOTA_EXCEEDED_STATE}';
  end if;
  return null;
end
$$;
${CHARGED_TABLES.map(
  (table) => `drop trigger if exists ${table}_quota on ${table};
create trigger ${table}_quota after insert on ${table} for each row execute function sandbox_charge_tenant();`,
).join('\n')}
`;

/** Whether `error` is the database's refusal of a record past its tenant's quota. */
export function isQuotaExceeded(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === QUOTA_EXCEEDED_STATE;
}

/** The statement that removes a tenant's expired tokens (`$1` the tenant, `$2` now) and gives back their share. */
export const PRUNE_EXPIRED_TOKENS = `
with gone as (
  delete from tokens where tenant_id = $1 and expires_at < $2 returning octet_length(tokens::text) as bytes
)
update tenants set records = records - (select count(*) from gone),
  record_bytes = record_bytes - (select coalesce(sum(bytes), 0) from gone)
where id = $1 and exists (select 1 from gone)`;
