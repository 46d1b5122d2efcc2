-- Fiat payouts: resources/payouts.ts.
create table payouts (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  account_id uuid not null,
  amount numeric not null,
  currency text not null,
  payment_method text not null,
  status text not null,
  created_at timestamptz not null
);
