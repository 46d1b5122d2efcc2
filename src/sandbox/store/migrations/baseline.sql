-- Not a numbered migration: the schema as the sandbox made it before its migrations were these files, one
-- idempotent script that brought any store it opened up to date. A store made then (it has the table
-- `sandbox_schema`) gets this script once, which brings it to the state of migrations 0001 to 0011, and those
-- are recorded as applied (store/migrate.ts). Kept as it was: never edit it.
create table if not exists tenants (
  id uuid primary key,
  name text not null,
  business_secret text not null,
  v1_secret text not null,
  integration_register text not null,
  created_at timestamptz not null
);
create table if not exists tokens (
  token text primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  family text not null,
  expires_at timestamptz
);
create table if not exists sandbox_clock (
  id integer primary key check (id = 1),
  offset_ms bigint not null
);
insert into sandbox_clock (id, offset_ms) values (1, 0) on conflict (id) do nothing;
create table if not exists sandbox_signing_key (
  id integer primary key check (id = 1),
  secret text not null
);
create table if not exists users (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  status text not null,
  tier_limit numeric,
  record jsonb not null,
  created_at timestamptz not null
);
create table if not exists balances (
  tenant_id uuid not null references tenants(id) on delete cascade,
  owner_id uuid not null,
  currency text not null,
  amount numeric not null check (amount >= 0)
);
alter table balances drop constraint if exists balances_pkey;
create unique index if not exists balances_by_tenant on balances (tenant_id, owner_id, currency);
create table if not exists kyc_sessions (
  id text primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  template_id text,
  custom_metadata_name text,
  created_at timestamptz not null,
  used_at timestamptz,
  outcome text
);
create table if not exists custody_wallets (
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
create table if not exists external_wallets (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  token text not null,
  network text not null,
  status text not null
);
create table if not exists wallet_transfers (
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
create index if not exists wallet_transfers_by_user on wallet_transfers (user_id, created_at desc, seq desc);
create table if not exists bank_accounts (
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
create table if not exists payouts (
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
create table if not exists on_ramps (
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
create table if not exists on_ramp_checkouts (
  id text primary key,
  operation_id uuid not null references on_ramps(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  redirect_url text
);
create table if not exists business_webhooks (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  url text not null,
  process text not null,
  status boolean not null,
  created_at timestamptz not null
);
create table if not exists integration_endpoints (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  trigger_event text,
  is_active boolean not null,
  config jsonb not null,
  created_at timestamptz not null,
  unique (tenant_id, name)
);
create table if not exists sandbox_events (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  event text not null,
  payload jsonb not null,
  created_at timestamptz not null
);
-- The order events were emitted in (several in one transaction can share a time): listEvents sorts by it.
alter table sandbox_events add column if not exists seq bigserial;
create table if not exists sandbox_deliveries (
  id uuid primary key,
  event_id uuid not null references sandbox_events(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  endpoint_kind text not null,
  endpoint_id uuid not null,
  url text not null,
  timeout_ms integer not null,
  retry_delays_ms jsonb not null,
  status text not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  created_at timestamptz not null
);
create index if not exists sandbox_deliveries_due on sandbox_deliveries (next_attempt_at) where status = 'pending';
create table if not exists sandbox_delivery_attempts (
  delivery_id uuid not null references sandbox_deliveries(id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  finished_at timestamptz not null,
  outcome text not null,
  http_status integer,
  primary key (delivery_id, attempt)
);
-- Every claim of a delivery has a row of its own, keyed by claim (the delivery's attempts counter after the
-- claim), so two claims that make the same attempt (the second taken when the first one's lease ran out with its
-- call in flight, or its instance died) never share a row and no call made is lost from the log. attempt is
-- the scheduled call the claim made, which decides the next retry's delay. abandoned: a claim whose outcome
-- its instance never recorded (it died), logged by the next claim as a timeout, and overwritten if it is recorded after all.
alter table sandbox_delivery_attempts add column if not exists claim integer;
alter table sandbox_delivery_attempts add column if not exists abandoned boolean not null default false;
update sandbox_delivery_attempts set claim = attempt where claim is null;
alter table sandbox_delivery_attempts alter column claim set not null;
alter table sandbox_delivery_attempts drop constraint if exists sandbox_delivery_attempts_pkey;
alter table sandbox_delivery_attempts add constraint sandbox_delivery_attempts_pkey primary key (delivery_id, claim);
-- The latest claim: the attempt it makes and when it started, for the next claim to log it if it is never recorded.
alter table sandbox_deliveries add column if not exists claim_attempt integer;
alter table sandbox_deliveries add column if not exists claimed_at timestamptz;
create table if not exists rate_limits (
  operation_id text primary key,
  max_calls integer not null,
  window_ms bigint not null
);
create table if not exists rate_counts (
  operation_id text not null,
  caller text not null,
  window_start bigint not null,
  calls integer not null,
  primary key (operation_id, caller, window_start)
);
