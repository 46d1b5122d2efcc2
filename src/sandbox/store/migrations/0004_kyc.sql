-- KYC sessions (the KYC link's page): resources/kyc.ts.
create table kyc_sessions (
  id text primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null,
  template_id text,
  custom_metadata_name text,
  created_at timestamptz not null,
  used_at timestamptz,
  outcome text
);
