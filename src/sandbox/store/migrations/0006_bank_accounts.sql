-- Destination bank accounts: resources/accounts.ts.
create table bank_accounts (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  status text not null,
  holder_name text not null,
  nickname text not null,
  account_number text not null,
  account_type text not null,
  bank_name text not null,
  created_at timestamptz not null
);
