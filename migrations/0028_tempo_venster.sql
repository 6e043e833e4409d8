-- Up Migration
-- The rate limit's counts: one row per credential (or client address), window and backend
-- (db/050_call.sql, app_hidden.aanroep_begin), no longer one per credential and backend kept
-- for good. While a transaction holds back the horizon no old version can be pruned, and a count
-- reads every version of its rows: with a row per window it reads those of one window only.
-- The counts are unlogged and forgiving (a crash starts them again), so they start again here.
truncate app_private.tempo;
alter table app_private.tempo drop constraint tempo_pkey;
alter table app_private.tempo add primary key (wie, tot, pid);

-- Down Migration
truncate app_private.tempo;
alter table app_private.tempo drop constraint tempo_pkey;
alter table app_private.tempo add primary key (wie, pid);
