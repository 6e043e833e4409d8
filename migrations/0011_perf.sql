-- Up Migration
-- What a call costs (issue 8). The call log is written once per call, at its end, and each
-- call is counted against a rate limit in the same statement (db/050_call.sql).

-- Every call-log insert took a KEY SHARE lock on its organisation's row for this foreign key;
-- calls of one organisation at once then share that row through a MultiXact, on every call.
-- Organisations are never deleted (retention trims the log by age), so the key buys nothing.
alter table app_private.aanroepen drop constraint aanroepen_org_id_fkey;

-- The request id a door answered with (X-Request-Id), to find a call from a client's report.
alter table app_private.aanroepen add column verzoek_id text;
alter table app_private.aanroepen_zonder_org add column verzoek_id text;

-- Calls per credential (or per client address without one) per rate-limit window, one row
-- per backend so that concurrent calls never wait for each other's row lock: the count of a
-- window is the sum over the rows of its credential. Unlogged: after a crash the counts start
-- again, which only forgives a window.
create unlogged table app_private.tempo (
  wie text not null,        -- 'sleutel:<key id>' or 'adres:<client address>'
  pid integer not null,     -- the backend that counted
  tot bigint not null,      -- the end of the window counted in (epoch seconds)
  aantal integer not null,
  primary key (wie, pid)
) with (fillfactor = 70);

-- Retention finds old calls by time; the rows come in time order, so a block range index
-- serves it at a fraction of a B-tree's cost per insert.
drop index app_private.aanroepen_bewaren;
create index aanroepen_bewaren on app_private.aanroepen using brin (tijdstip);

-- Hours per task (taak_weergave shows them on every task of every list).
create index uren_taak on app.uren (org_id, taak_id) where taak_id is not null;

-- Down Migration
drop index app.uren_taak;
drop index app_private.aanroepen_bewaren;
create index aanroepen_bewaren on app_private.aanroepen (tijdstip);
drop table app_private.tempo;
alter table app_private.aanroepen_zonder_org drop column verzoek_id;
alter table app_private.aanroepen drop column verzoek_id;
alter table app_private.aanroepen add foreign key (org_id) references app.organisaties on delete cascade;
