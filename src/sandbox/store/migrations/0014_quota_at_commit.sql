-- A tenant's records are charged when the transaction that writes them commits, not as each is inserted. Every
-- write of a tenant updates the tenant's one row (0012_tenant_quotas.sql); charged at the insert, that row stays
-- locked until the commit, so on PostgreSQL all of a tenant's writes waited for one another, however many
-- instances served them. Charged at the commit, the row is held only while the commit runs. A record past the
-- quota still fails its transaction whole, now at its commit, with the same SQLSTATE RQ001. The row is written
-- out as text once per record.
create or replace function sandbox_charge_tenant() returns trigger language plpgsql as $$
declare
  bytes bigint := octet_length(new::text);
begin
  update tenants set records = records + 1, record_bytes = record_bytes + bytes
    where id = new.tenant_id and records < 100000 and record_bytes + bytes <= 67108864;
  if not found and exists (select 1 from tenants where id = new.tenant_id) then
    raise exception 'tenant over its quota' using errcode = 'RQ001';
  end if;
  return null;
end
$$;

-- Every trigger that charges sandbox_charge_tenant is made again as a deferred constraint trigger, so that the
-- list of charged tables stays the one 0012 and later files make.
do $$
declare
  charged record;
begin
  for charged in
    select t.tgname::text as name, c.relname::text as target
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where t.tgfoid = 'sandbox_charge_tenant'::regproc and not t.tgisinternal
  loop
    execute format('drop trigger %I on %I', charged.name, charged.target);
    execute format(
      'create constraint trigger %I after insert on %I deferrable initially deferred for each row '
      'execute function sandbox_charge_tenant()', charged.name, charged.target);
  end loop;
end
$$;
