-- Up Migration
-- A call whose operation PostgreSQL broke off for a conflict with another transaction (a
-- deadlock, a serialization failure) is tried again inside api.aanroep, a few times at most
-- (db/050_call.sql). The log row counts the tries; null is the usual single try.
alter table app_private.aanroepen add column pogingen smallint;

-- Down Migration
alter table app_private.aanroepen drop column pogingen;
