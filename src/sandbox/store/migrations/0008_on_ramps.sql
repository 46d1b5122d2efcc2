-- On-ramp operations and their checkout pages: resources/onramps.ts.
create table on_ramps (
  id uuid primary key,
  seq bigserial,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  status text not null,
  amount_destination numeric not null,
  symbol_destination text not null,
  record jsonb not null,
  created_at timestamptz not null
);
create table on_ramp_checkouts (
  id text primary key,
  operation_id uuid not null references on_ramps(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  redirect_url text
);
