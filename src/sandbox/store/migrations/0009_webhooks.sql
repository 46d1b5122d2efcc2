-- Business webhooks and v1 integration endpoints: resources/webhooks.ts.
create table business_webhooks (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  url text not null,
  process text not null,
  status boolean not null,
  created_at timestamptz not null
);
create table integration_endpoints (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  trigger_event text,
  is_active boolean not null,
  config jsonb not null,
  created_at timestamptz not null,
  unique (tenant_id, name)
);
