-- Up Migration
-- The reads and writes of reflections, hours, valuations, conversations, session notes and the
-- strategy canvas (db/200_reflecties.sql ... db/250_strategie.sql).

-- A parameter that is a list of objects (sessienotitie_schrijven's actiepunten): the rule of
-- each key, by key, with the same fields as a parameter's rule (src/parameters.ts, elements).
alter table app.operatie_parameters add column elementen jsonb;

-- Hours go to one thing at most: a task, a priority or a project (or none: loose hours).
alter table app.uren add constraint uren_een_onderwerp check (num_nonnulls(taak_id, prioriteit_id, project_id) <= 1);
-- uren for everyone over a period.
create index uren_datum on app.uren (org_id, datum);

-- A reflection's period is a month that exists, a quarter or a year.
alter table app.reflecties drop constraint reflecties_periode_check;
alter table app.reflecties add constraint reflecties_periode_vorm check (periode ~ '^\d{4}(-(0[1-9]|1[0-2])|-Q[1-4])?$');
create index reflecties_periode on app.reflecties (org_id, soort, periode);

-- A valuation is measured for a month <yyyy>-<mm>, a quarter Q<n>-<yyyy> or a year <yyyy>
-- (how the app writes it), so waardering can put the newest period first.
alter table app.waarderingen add constraint waarderingen_periode_vorm
  check (periode ~ '^(\d{4}|\d{4}-(0[1-9]|1[0-2])|Q[1-4]-\d{4})$');

-- Session notes newest first; action points in the order they were given.
create index sessienotities_datum on app.sessienotities (org_id, datum desc, aangemaakt_op desc);
alter table app.sessie_actiepunten add column volgorde integer not null default 0;
create index sessie_actiepunten_notitie on app.sessie_actiepunten (org_id, notitie_id, volgorde);

create index gesprekken_datum on app.gesprekken (org_id, datum desc);

-- These value lists are now derived from app.keuzes (db/005_keuzes.sql, src/choices.ts).
alter table app.reflecties drop constraint reflecties_soort_check;
alter table app.sessienotities drop constraint sessienotities_soort_check;
alter table app.sessienotities drop constraint sessienotities_status_check;
alter table app.strategie_voorstellen drop constraint strategie_voorstellen_status_check;

comment on column app.strategie_voorstellen.velden is
  'Per canvas field (a column of app.strategie) what stood when proposed and the new text: '
  '{"<veld>": {"nu": <text or null>, "wordt": <text or null>}}. Approving writes each "wordt".';

-- Down Migration
comment on column app.strategie_voorstellen.velden is null;
alter table app.strategie_voorstellen add constraint strategie_voorstellen_status_check
  check (status in ('open', 'goedgekeurd', 'afgewezen'));
alter table app.sessienotities add constraint sessienotities_status_check check (status in ('concept', 'vastgesteld'));
alter table app.sessienotities add constraint sessienotities_soort_check
  check (soort in ('strategie', 'kwartaal', 'maand', 'check_in', 'overig'));
alter table app.reflecties add constraint reflecties_soort_check check (soort in ('maand', 'kwartaal', 'jaar'));
drop index app.gesprekken_datum;
drop index app.sessie_actiepunten_notitie;
alter table app.sessie_actiepunten drop column volgorde;
drop index app.sessienotities_datum;
alter table app.waarderingen drop constraint waarderingen_periode_vorm;
drop index app.reflecties_periode;
alter table app.reflecties drop constraint reflecties_periode_vorm;
alter table app.reflecties add constraint reflecties_periode_check check (periode ~ '^\d{4}(-\d{2}|-Q[1-4])?$');
drop index app.uren_datum;
alter table app.uren drop constraint uren_een_onderwerp;
alter table app.operatie_parameters drop column elementen;
