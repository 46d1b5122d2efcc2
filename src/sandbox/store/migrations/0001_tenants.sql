-- Tenants (clients), their credentials and tokens, and the key the sandbox signs tokens with: resources/tenants.ts.
create table tenants (
  id uuid primary key,
  name text not null,
  business_secret text not null,
  v1_secret text not null,
  integration_register text not null,
  created_at timestamptz not null
);
create table tokens (
  token text primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  family text not null,
  expires_at timestamptz
);
create table sandbox_signing_key (
  id integer primary key check (id = 1),
  secret text not null
);
