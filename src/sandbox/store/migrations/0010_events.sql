-- Events and their deliveries: events/store.ts. seq: the order events were emitted in (several in one
-- transaction can share a time); listEvents sorts by it.
create table sandbox_events (
  id uuid primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  event text not null,
  payload jsonb not null,
  created_at timestamptz not null,
  seq bigserial
);
-- claim_attempt, claimed_at: the latest claim, the attempt it makes and when it started, for the next claim to
-- log it if it is never recorded.
create table sandbox_deliveries (
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
  created_at timestamptz not null,
  claim_attempt integer,
  claimed_at timestamptz
);
create index sandbox_deliveries_due on sandbox_deliveries (next_attempt_at) where status = 'pending';
-- Every claim of a delivery has a row of its own, keyed by claim (the delivery's attempts counter after the
-- claim), so no call made is lost from the log, whichever instance records it. attempt is the scheduled call the
-- claim made, which decides the next retry's delay: each claim makes the attempt after the previous one's.
-- abandoned: a claim whose outcome its instance never recorded (it died, or its lease ran out with the call in
-- flight), logged by the next claim as a timeout, and overwritten if it is recorded after all.
create table sandbox_delivery_attempts (
  delivery_id uuid not null references sandbox_deliveries(id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  finished_at timestamptz not null,
  outcome text not null,
  http_status integer,
  claim integer not null,
  abandoned boolean not null default false,
  primary key (delivery_id, claim)
);
