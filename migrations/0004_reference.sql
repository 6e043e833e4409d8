-- Up Migration
-- Reference data written from the TypeScript registry on every migrate (src/db/reference-data.ts),
-- so each list is defined once: the value lists (keuzes), the parameters of every operation, and
-- whether a write takes two steps. The literal check constraints that listed roles, sections,
-- task stands, repetitions, sizes and kinds are replaced by constraints derived from
-- app.keuzes (db/005_keuzes.sql).

create table app.keuzes (
  lijst text not null,
  waarde text not null,
  volgorde integer not null,
  -- What the value stands for, where decisions.md gives it: a task stand's read-side name,
  -- the hours of a size, the step (interval) of a repetition.
  betekenis text,
  primary key (lijst, waarde)
);

create table app.operatie_parameters (
  operatie text not null references app.operaties (naam) on delete cascade,
  naam text not null,
  volgorde integer not null,
  type text not null check (type in ('uuid', 'string', 'text', 'integer', 'number', 'keuze', 'vlag', 'array', 'object')),
  verplicht boolean not null,
  waarden text[],
  patroon text,
  uitleg text,
  max_lengte integer,
  minimum numeric,
  maximum numeric,
  max_elementen integer,
  getal boolean not null default false,
  primary key (operatie, naam)
);

alter table app.operaties add column twee_stappen boolean not null default true;

alter table app.operaties drop constraint operaties_sectie_check;
alter table app.rol_rechten drop constraint rol_rechten_rol_check;
alter table app.lidmaatschappen drop constraint lidmaatschappen_rol_check;
alter table app.org_rechten drop constraint org_rechten_rol_check;
alter table app.secties drop constraint secties_sectie_check;
alter table app.taken drop constraint taken_stand_check;
alter table app.taken drop constraint taken_herhalen_check;
alter table app.taken drop constraint taken_grootte_check;
alter table app.prioriteiten drop constraint prioriteiten_soort_check;
alter table app.kpis drop constraint kpis_meetsoort_check;
alter table app.kpis drop constraint kpis_cadans_check;

-- Down Migration
alter table app.operaties drop column twee_stappen;
drop table app.operatie_parameters;
drop table app.keuzes;
