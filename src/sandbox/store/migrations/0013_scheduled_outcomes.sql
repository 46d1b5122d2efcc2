-- Trigger outcomes asked for after a delay in sandbox time, until they fall due: core/outcomes.ts.
create table sandbox_scheduled_outcomes (
  id bigserial primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  trigger text not null,
  record_id text not null,
  due_at timestamptz not null
);
create index sandbox_scheduled_outcomes_due on sandbox_scheduled_outcomes (due_at);
create trigger sandbox_scheduled_outcomes_quota after insert on sandbox_scheduled_outcomes for each row execute function sandbox_charge_tenant();
