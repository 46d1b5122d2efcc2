-- The sandbox clock's offset from the real clock, one row for every instance on the store: store/clock-offset.ts.
create table sandbox_clock (
  id integer primary key check (id = 1),
  offset_ms bigint not null
);
insert into sandbox_clock (id, offset_ms) values (1, 0);
