-- The sandbox's own rate limits and the calls counted against them: resources/rate-limits.ts.
create table rate_limits (
  operation_id text primary key,
  max_calls integer not null,
  window_ms bigint not null
);
create table rate_counts (
  operation_id text not null,
  caller text not null,
  window_start bigint not null,
  calls integer not null,
  primary key (operation_id, caller, window_start)
);
