-- A delayed trigger outcome (core/outcomes.ts) keeps a promise the sandbox made when the tenant had room to
-- schedule it, so its writes (the record's change, its event and deliveries) are checked against a larger bound
-- than the tenant's own requests: the quota plus an allowance of a quarter (store/quotas.ts, OUTCOME_ALLOWANCE).
-- The pass says which writes are an outcome's with the transaction-local setting `sandbox.outcome` = 'on'.
create or replace function sandbox_charge_tenant() returns trigger language plpgsql as $$
declare
  bytes bigint := octet_length(new::text);
  outcome boolean := coalesce(current_setting('sandbox.outcome', true), '') = 'on';
begin
  update tenants set records = records + 1, record_bytes = record_bytes + bytes
    where id = new.tenant_id
      and records < (case when outcome then 125000 else 100000 end)
      and record_bytes + bytes <= (case when outcome then 83886080 else 67108864 end);
  if not found and exists (select 1 from tenants where id = new.tenant_id) then
    raise exception 'tenant over its quota' using errcode = 'RQ001';
  end if;
  return null;
end
$$;
