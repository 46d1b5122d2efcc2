// What one tenant may store: every text of a request at most MAX_TEXT_CHARS characters, and every record kept
// for a tenant counted against TENANT_QUOTA (by the database's sandbox_charge_tenant, made by the migrations
// 0012 and 0014, which hold the same numbers: quotas.test.ts compares them), so that no tenant can grow the
// sandbox's memory (PGlite in memory holds every record in the process) or its disk without bound.

/** The longest text (a field's value or a key) a request body may carry: URLs, names and notes fit. */
export const MAX_TEXT_CHARS = 4096;

/**
 * The records (rows of any table that belongs to a tenant: users, balances, wallets, transfers, bank accounts,
 * external wallets, KYC sessions, on-ramps and their checkouts, payouts, endpoints, business webhooks, events,
 * deliveries, tokens) one tenant may hold, and their bytes as PostgreSQL writes their values out: a test suite
 * makes a few thousand records of a few hundred bytes, far inside both. What a full tenant costs a sandbox in
 * memory is measured by store/quotas.interrupt.test.ts and given in docs/guides/sandbox-security.md.
 */
export const TENANT_QUOTA = { records: 100_000, bytes: 64 * 1024 * 1024 } as const;

/**
 * How far past TENANT_QUOTA a delayed trigger outcome may still take its tenant (a quarter more): the tenant had
 * room when it scheduled the outcome, so the outcome runs even once the tenant's own writes have filled the quota.
 * Only a tenant past both loses an outcome (migrations/0015_outcome_allowance.sql holds the same numbers).
 */
export const OUTCOME_ALLOWANCE = { records: 25_000, bytes: 16 * 1024 * 1024 } as const;

/** The transaction-local setting that marks the writes that follow as a delayed outcome's (OUTCOME_ALLOWANCE). */
export const OUTCOME_SETTING = 'sandbox.outcome';

/**
 * SQLSTATE of the refusal of a record past its tenant's quota (class RQ: the sandbox's own), raised by the
 * trigger of migrations/0012_tenant_quotas.sql (at commit since 0014), which counts each record in its tenant's row.
 */
const QUOTA_EXCEEDED_STATE = 'RQ001';

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
