-- taak_toevoegen: what a task belongs to, subtasks, size and estimate, repetition, weeks, tags,
-- brand labels; its number, history and event; allowed and refused roles.
begin;
select plan(33);

set local koers.nu = '2026-05-14T10:00:00+02:00';  -- Thursday of 2026-W20
select tests.wereld('Taak BV') as org \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select id as project from app.projecten where org_id = :'org' \gset
select tests.lid(:'org', 'lid') as lid \gset
select tests.lid(:'org', 'mt') as mt \gset
create function pg_temp.t(_extra jsonb) returns jsonb language sql as $$ select '{"omschrijving": "Offerte sturen"}'::jsonb || _extra $$;
create function pg_temp.voeg(_extra jsonb) returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Taak BV'), 'lid', 'taak_toevoegen', pg_temp.t(_extra)) -> 'resultaat' -> 'taak'
$$;

select is(tests.fout(:'org', 'lid', 'taak_toevoegen', '{}'), 'ongeldige_parameters:omschrijving', 'omschrijving is required');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t(jsonb_build_object('prioriteit_id', :'prio', 'project_id', :'project'))),
  'ongeldige_parameters:project_id', 'a priority and a project together are refused');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t(jsonb_build_object('prioriteit_id', gen_random_uuid()))),
  'ongeldige_parameters:prioriteit_id', 'an unknown priority is refused');
select is(pg_temp.voeg('{}') #>> '{hoort_bij,soort}', 'los', 'without either the task is loose');
select is(pg_temp.voeg(jsonb_build_object('project_id', :'project')) #>> '{hoort_bij,titel}', 'Website', 'a task in a project');
create temp table ouder as select pg_temp.voeg(jsonb_build_object('prioriteit_id', :'prio', 'eigenaar_user_id', :'mt')) as t;
select is((select t #>> '{hoort_bij,soort}' from ouder), 'prioriteit', 'a task under a priority');
select ok((select (t ->> 'nummer')::int from ouder) > 1, 'numbers continue per organisation');

-- Subtasks
create temp table sub as select pg_temp.voeg(jsonb_build_object('onder_taak_nummer', (select (t ->> 'nummer')::int from ouder))) as t;
select is((select t #>> '{hoort_bij,id}' from sub), :'prio', 'a subtask belongs to the priority of its parent');
select is((select t #>> '{eigenaar,user_id}' from sub), :'mt', 'and takes the parent''s owner when none is given');
select is((select t ->> 'onder_taak_nummer' from sub), (select t ->> 'nummer' from ouder), 'and names its parent');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t(jsonb_build_object('onder_taak_nummer', (select (t ->> 'nummer')::int from sub)))),
  'ongeldige_parameters:onder_taak_nummer', 'subtasks are one layer deep');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t(jsonb_build_object('onder_taak_nummer', (select (t ->> 'nummer')::int from ouder), 'herhalen', 'week'))),
  'ongeldige_parameters:herhalen', 'a subtask does not repeat');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t(jsonb_build_object('onder_taak_nummer', (select (t ->> 'nummer')::int from ouder), 'project_id', :'project'))),
  'ongeldige_parameters:project_id', 'a subtask takes no priority or project of its own');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t('{"onder_taak_nummer": 9999}')), 'ongeldige_parameters:onder_taak_nummer',
  'an unknown parent is refused');
select is((select soort || ':' || (nieuw ->> 'nummer') from app.taak_geschiedenis
           where taak_id = (select (t ->> 'id')::uuid from ouder) and soort = 'subtaken'),
  'subtaken:' || (select t ->> 'nummer' from sub), 'the parent''s history records the subtask');

-- Size and estimate
select is(pg_temp.voeg('{"grootte": "middel"}') ->> 'inschatting_uren', '8', 'size middel fills an estimate of 8 hours');
select is(pg_temp.voeg('{"inschatting_uren": 3.5}') ->> 'inschatting_uren', '3.5', 'an estimate in hours');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t('{"grootte": "klein", "inschatting_uren": 2}')),
  'ongeldige_parameters:inschatting_uren', 'size and estimate together are refused');

-- Weeks
select is(pg_temp.voeg('{"week": "deze"}') ->> 'week', '2026-W20', 'deze is this ISO week');
select is(pg_temp.voeg('{"week": "volgende"}') ->> 'week', '2026-W21', 'volgende is the next');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t('{"week": "2026-W19"}')), 'ongeldige_parameters:week', 'a week that has passed is refused');
select is(pg_temp.voeg('{"week": "2026-W53"}') ->> 'week', '2026-W53', 'week 53 of 2026 exists');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t('{"week": "2027-W53"}')), 'ongeldige_parameters:week', 'week 53 of 2027 does not');

-- Tags and brand label
select is(pg_temp.voeg('{"tags": ["Offerte", "offerte", "Nieuw"]}') -> 'tags', '["Nieuw", "Offerte"]', 'tags, duplicates ignoring case dropped');
select is((select count(*)::int from app.tags where org_id = :'org' and lower(naam) in ('nieuw', 'offerte')), 2,
  'a new tag exists in the organisation from then on');
select is(pg_temp.voeg(jsonb_build_object('project_id', :'project')) ->> 'brand_label', 'Hoofdmerk', 'empty brand label is that of the project');
select is(tests.fout(:'org', 'lid', 'taak_toevoegen', pg_temp.t('{"brand_label": "Onbekend"}')), 'ongeldige_parameters:brand_label', 'an unknown brand label is refused');

-- Event and roles
select is((select gegevens #>> '{taak,titel}' || '/' || (gegevens #>> '{onderdeel,soort}') from app.gebeurtenissen
           where soort = 'taak.aangemaakt' and onderwerp_id = (select (t ->> 'id')::uuid from ouder)),
  'Offerte sturen/prioriteit', 'taak.aangemaakt is recorded with the task and what it belongs to');
select is(tests.fout(:'org', 'coach', 'taak_toevoegen', pg_temp.t('{}')), '42501', 'a coach may not add tasks (policy)');

-- Tasks from a private project are never sent: their events are marked besloten.
select pg_temp.voeg(jsonb_build_object('project_id', :'project')) ->> 'id' as open_taak \gset
update app.projecten set besloten = true where id = :'project';
select pg_temp.voeg(jsonb_build_object('project_id', :'project')) ->> 'id' as besloten_taak \gset
select is((select besloten from app.gebeurtenissen where soort = 'taak.aangemaakt' and onderwerp_id = :'open_taak'),
  false, 'an event about a task in an open project may be sent');
select is((select besloten from app.gebeurtenissen where soort = 'taak.aangemaakt' and onderwerp_id = :'besloten_taak'),
  true, 'an event about a task in a private project is marked besloten');
-- The part a task belongs to, in an organisation with teams: a project's has no team (null), a
-- priority's names its own.
select is((select gegevens -> 'onderdeel' from app.gebeurtenissen where soort = 'taak.aangemaakt' and onderwerp_id = :'open_taak'),
  jsonb_build_object('id', :'project'::uuid, 'titel', (select titel from app.projecten where id = :'project'), 'soort', 'project',
                     'team', null),
  'a project task''s event: the project, with team null as the organisation has teams');
select is((select gegevens #> '{onderdeel,team}' from app.gebeurtenissen
           where soort = 'taak.aangemaakt' and onderwerp_id = (select (t ->> 'id')::uuid from ouder)),
  (select case when p.team_id is null then 'null'::jsonb
               else (select jsonb_build_object('id', t.id, 'naam', t.naam) from app.teams t where t.id = p.team_id) end
   from app.prioriteiten p where p.id = :'prio'),
  'a priority task''s event: the priority''s team');

select * from finish();
rollback;
