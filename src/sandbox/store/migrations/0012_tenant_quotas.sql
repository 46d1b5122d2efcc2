-- What one tenant may store (store/quotas.ts, whose TENANT_QUOTA these numbers are): every row of a table that
-- belongs to a tenant counts one record and its bytes (its values as PostgreSQL writes them out) in the tenant's
-- row, in the statement that inserts it, or fails that statement with SQLSTATE RQ001 past 100000 records or
-- 67108864 bytes (64 MiB). Checking costs an update of one row by its key, never a count over a table.
alter table tenants add column records bigint not null default 0;
alter table tenants add column record_bytes bigint not null default 0;
-- Expired tokens are removed by tenant as new ones are issued.
create index tokens_tenant_expiry on tokens (tenant_id, expires_at);

create function sandbox_charge_tenant() returns trigger language plpgsql as $$
begin
  update tenants set records = records + 1, record_bytes = record_bytes + octet_length(new::text)
    where id = new.tenant_id and records < 100000 and record_bytes + octet_length(new::text) <= 67108864;
  if not found and exists (select 1 from tenants where id = new.tenant_id) then
    raise exception 'tenant over its quota' using errcode = 'RQ001';
  end if;
  return null;
end
$$;

create trigger users_quota after insert on users for each row execute function sandbox_charge_tenant();
create trigger balances_quota after insert on balances for each row execute function sandbox_charge_tenant();
create trigger custody_wallets_quota after insert on custody_wallets for each row execute function sandbox_charge_tenant();
create trigger external_wallets_quota after insert on external_wallets for each row execute function sandbox_charge_tenant();
create trigger wallet_transfers_quota after insert on wallet_transfers for each row execute function sandbox_charge_tenant();
create trigger bank_accounts_quota after insert on bank_accounts for each row execute function sandbox_charge_tenant();
create trigger kyc_sessions_quota after insert on kyc_sessions for each row execute function sandbox_charge_tenant();
create trigger on_ramps_quota after insert on on_ramps for each row execute function sandbox_charge_tenant();
create trigger on_ramp_checkouts_quota after insert on on_ramp_checkouts for each row execute function sandbox_charge_tenant();
create trigger payouts_quota after insert on payouts for each row execute function sandbox_charge_tenant();
create trigger business_webhooks_quota after insert on business_webhooks for each row execute function sandbox_charge_tenant();
create trigger integration_endpoints_quota after insert on integration_endpoints for each row execute function sandbox_charge_tenant();
create trigger sandbox_events_quota after insert on sandbox_events for each row execute function sandbox_charge_tenant();
create trigger sandbox_deliveries_quota after insert on sandbox_deliveries for each row execute function sandbox_charge_tenant();
create trigger tokens_quota after insert on tokens for each row execute function sandbox_charge_tenant();
