-- Up Migration
-- When a row last changed, on every table a warehouse view (db/940_rapportage.sql) shows whose
-- rows change, so a tool can load incrementally; the others have it already (taken,
-- prioriteiten, projecten, kpis, lidmaatschappen, strategie). Kept by app_hidden.tg__bijgewerkt
-- (db/930_warehouse.sql attaches it); rows that exist now count as changed at this migration.
alter table app.weektaken add column bijgewerkt_op timestamptz not null default now();
alter table app.reflecties add column bijgewerkt_op timestamptz not null default now();
alter table app.uren add column bijgewerkt_op timestamptz not null default now();
alter table app.waarderingen add column bijgewerkt_op timestamptz not null default now();
alter table app.gesprekken add column bijgewerkt_op timestamptz not null default now();
alter table app.sessienotities add column bijgewerkt_op timestamptz not null default now();
alter table app.kernresultaten add column bijgewerkt_op timestamptz not null default now();
alter table app.kpi_metingen add column bijgewerkt_op timestamptz not null default now();

-- Down Migration
alter table app.weektaken drop column bijgewerkt_op;
alter table app.reflecties drop column bijgewerkt_op;
alter table app.uren drop column bijgewerkt_op;
alter table app.waarderingen drop column bijgewerkt_op;
alter table app.gesprekken drop column bijgewerkt_op;
alter table app.sessienotities drop column bijgewerkt_op;
alter table app.kernresultaten drop column bijgewerkt_op;
alter table app.kpi_metingen drop column bijgewerkt_op;
