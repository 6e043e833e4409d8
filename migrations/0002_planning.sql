-- Up Migration
-- History entries and events remember the transaction and the door call that wrote them, so
-- that one change (say, new tags plus a new deadline) yields one history entry per kind and
-- one event, not one per row touched.
alter table app.taak_geschiedenis add column xid xid8 not null default pg_current_xact_id();
alter table app.taak_geschiedenis add column aanroep_id uuid;
alter table app.gebeurtenissen add column xid xid8 not null default pg_current_xact_id();
alter table app.gebeurtenissen add column aanroep_id uuid;
alter table app.gebeurtenissen add column onderwerp_id uuid;
create index gebeurtenissen_samenvoegen on app.gebeurtenissen (org_id, xid, soort, onderwerp_id);
create index taak_geschiedenis_samenvoegen on app.taak_geschiedenis (org_id, xid, taak_id, soort);
create index kpi_metingen_periode on app.kpi_metingen (org_id, kpi_id, periode_start);

-- Down Migration
drop index app.kpi_metingen_periode;
drop index app.taak_geschiedenis_samenvoegen;
drop index app.gebeurtenissen_samenvoegen;
alter table app.gebeurtenissen drop column onderwerp_id;
alter table app.gebeurtenissen drop column aanroep_id;
alter table app.taak_geschiedenis drop column aanroep_id;
alter table app.gebeurtenissen drop column xid;
alter table app.taak_geschiedenis drop column xid;
