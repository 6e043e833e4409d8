-- Up Migration
-- The rate limit's counts moved into the caller rows (app_hidden.bellers, a table of db/): a
-- call counts itself and records its caller in one write.
drop table app_private.tempo;

-- Down Migration
create unlogged table app_private.tempo (
  wie text not null,
  pid integer not null,
  tot bigint not null,
  aantal integer not null,
  primary key (wie, pid)
) with (fillfactor = 70);
