-- weektaak_toevoegen: into the new-work column; for a colleague only owner, admin or MT.
begin;
select plan(9);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Week BV') as org \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select tests.lid(:'org', 'lid') as lid \gset
select tests.lid(:'org', 'mt') as mt \gset

create temp table r as select tests.roep(:'org', 'lid', 'weektaak_toevoegen', jsonb_build_object('titel', 'Klant bellen', 'prioriteit_id', :'prio')) as r;
select is((select r #>> '{resultaat,weektaak,week}' from r), '2026-W20', 'empty week is this week');
select is((select r #>> '{resultaat,weektaak,status}' from r), 'nieuw', 'in the new-work column');
select is((select r #>> '{resultaat,weektaak,rock_id}' from r), :'prio', 'with the rock it belongs to');
select is((select user_id from app.weektaken where titel = 'Klant bellen'), :'lid', 'on the caller''s own board');
select is(tests.fout(:'org', 'lid', 'weektaak_toevoegen', jsonb_build_object('titel', 'Voor Mt', 'voor_user_id', :'mt')),
  'rol_mag_niet:voor_user_id', 'a member may not put work on a colleague''s board');
select is(tests.roep(:'org', 'mt', 'weektaak_toevoegen', jsonb_build_object('titel', 'Voor Lid', 'voor_user_id', :'lid')) #>> '{voorstel,voor,wordt,user_id}',
  :'lid', 'MT may');
select is(tests.fout(:'org', 'lid', 'weektaak_toevoegen', '{"titel": "Oud", "week": "2026-W19"}'), 'ongeldige_parameters:week', 'a week that has passed is refused');
select is(tests.fout(:'org', 'lid', 'weektaak_toevoegen', '{}'), 'ongeldige_parameters:titel', 'titel is required');
select is(tests.fout(:'org', 'coach', 'weektaak_toevoegen', '{"titel": "Coach"}'), '42501', 'a coach may not (policy)');

select * from finish();
rollback;
