-- Registered users and their fiat balances (one row per tenant, owner and currency): resources/users.ts.
create table users (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  status text not null,
  tier_limit numeric,
  record jsonb not null,
  created_at timestamptz not null
);
create table balances (
  tenant_id uuid not null references tenants(id) on delete cascade,
  owner_id uuid not null,
  currency text not null,
  amount numeric not null check (amount >= 0)
);
create unique index balances_by_tenant on balances (tenant_id, owner_id, currency);
