-- Custody wallets, external wallets and wallet-to-wallet transfers: resources/wallets.ts.
create table custody_wallets (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  token text not null,
  network text not null,
  address text not null,
  status text not null,
  balance numeric not null default 0 check (balance >= 0),
  created_at timestamptz not null
);
create table external_wallets (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  token text not null,
  network text not null,
  status text not null
);
create table wallet_transfers (
  id uuid primary key,
  seq bigserial,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  origin_wallet uuid not null,
  destination_wallet uuid not null,
  destination_tenant uuid not null,
  amount numeric not null,
  token text not null,
  status text not null,
  created_at timestamptz not null
);
create index wallet_transfers_by_user on wallet_transfers (user_id, created_at desc, seq desc);
