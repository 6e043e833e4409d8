-- uren: hours per person over a period (inclusive, this month by default), split per priority,
-- per project and loose; a caller who may not see all hours gets only their own, and is told.
begin;
select plan(22);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Uren BV') as org \gset
select tests.wereld('Ander BV') as ander \gset
select * from tests.leden(:'org') \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select id as website from app.projecten where org_id = :'org' \gset

-- The world: the member spent 2 h on a task of the rock on 12 May. More hours:
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, besloten, aangemaakt_door)
  values (:'org', 'Geheim', :'mt', '2026-05-01', true, :'mt') returning id as geheim \gset
insert into app.project_leden (org_id, project_id, user_id) values (:'org', :'geheim', :'admin');
insert into app.taken (org_id, nummer, omschrijving, project_id, aangemaakt_door) values (:'org', 2, 'Stil werk', :'geheim', :'mt')
  returning id as stil \gset
insert into app.taken (org_id, nummer, omschrijving, aangemaakt_door) values (:'org', 3, 'Los werk', :'lid') returning id as los \gset
insert into app.uren (org_id, user_id, datum, uren, project_id) values (:'org', :'eigenaar', '2026-05-02', 3, :'website');
insert into app.uren (org_id, user_id, datum, uren) values
  (:'org', :'eigenaar', '2026-05-31', 1.5), (:'org', :'eigenaar', '2026-06-01', 4), (:'org', :'eigenaar', '2026-04-30', 2);
insert into app.uren (org_id, user_id, datum, uren, taak_id) values
  (:'org', :'admin', '2026-05-10', 5, :'stil'), (:'org', :'lid', '2026-05-01', 1, :'los');
insert into app.uren (org_id, user_id, datum, uren) values (:'ander', tests.lid(:'ander', 'eigenaar'), '2026-05-02', 8);

create function pg_temp.u(_rol text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Uren BV'), _rol, 'uren', _p)
$$;
create function pg_temp.van(_antwoord jsonb, _naam text) returns jsonb language sql as $$
  select x from jsonb_array_elements(_antwoord -> 'personen') x where x #>> '{persoon,naam}' = _naam
$$;

select is(pg_temp.u('eigenaar') - 'personen' - 'totaal', '{"van": "2026-05-01", "tot": "2026-05-31", "alleen_eigen": false}',
  'empty van and tot are this month');
select is(pg_temp.u('eigenaar') -> 'totaal', '12.5', 'every hour of the month counts once');
select is(pg_temp.van(pg_temp.u('eigenaar'), 'Eigenaar Uren BV'),
  jsonb_build_object('persoon', tests.persoon(:'org', :'eigenaar'), 'uren', 4.5, 'per_prioriteit', '[]'::jsonb,
    'per_project', jsonb_build_array(jsonb_build_object('id', :'website', 'titel', 'Website', 'uren', 3)), 'losse_taken', 1.5),
  'per person: total, per priority, per project and loose; the last day counts, the day after not');
select is(pg_temp.van(pg_temp.u('eigenaar'), 'Lid Uren BV') - 'persoon',
  jsonb_build_object('uren', 3, 'per_prioriteit', jsonb_build_array(jsonb_build_object('id', :'prio', 'titel', 'Omzet +10%', 'uren', 2)),
    'per_project', '[]'::jsonb, 'losse_taken', 1), 'an hour on a task counts for its priority; a loose task is loose');
select is(pg_temp.van(pg_temp.u('eigenaar'), 'Admin Uren BV') -> 'per_project',
  '[{"id": null, "titel": null, "uren": 5, "besloten": true}]', 'a private project the caller does not work on counts, without its name');
select is(pg_temp.van(pg_temp.u('admin'), 'Admin Uren BV') #>> '{per_project,0,titel}', 'Geheim', 'to who works on it, with its name');
select is(pg_temp.van(pg_temp.u('eigenaar'), 'Mt Uren BV') -> 'uren', '0', 'every active member is listed, also without hours');
select is(pg_temp.u('coach') -> 'totaal', '12.5', 'a coach sees all hours');

-- A member ('eigen') gets only their own, and the answer says so.
select is(pg_temp.u('lid') - 'personen' - 'van' - 'tot',
  '{"alleen_eigen": true, "toelichting": "Je ziet alleen je eigen uren.", "totaal": 3}', 'a member gets only their own hours, and is told');
select is((select array_agg(x #>> '{persoon,naam}') from jsonb_array_elements(pg_temp.u('lid') -> 'personen') x), array['Lid Uren BV'],
  'only their own person');
select is(tests.fout(:'org', 'lid', 'uren', jsonb_build_object('user_id', :'eigenaar')), 'rol_mag_niet:user_id',
  'a member asking for a colleague is refused');
select is(pg_temp.u('lid', jsonb_build_object('user_id', :'lid')) -> 'totaal', '3', 'and may name themself');
select is(tests.rijen(:'org', 'lid', 'app.uren'), 2::bigint, 'reading the table directly a member sees only their own rows');
select is(tests.rijen(:'org', 'eigenaar', 'app.uren'), 6::bigint, 'an owner every row but those on a private project''s tasks');

-- Filters
select is((select array_agg(x #>> '{persoon,naam}') from jsonb_array_elements(pg_temp.u('eigenaar', jsonb_build_object('user_id', :'lid')) -> 'personen') x),
  array['Lid Uren BV'], 'user_id: only that person');
select is(pg_temp.van(pg_temp.u('eigenaar', '{"van": "2026-05-31", "tot": "2026-06-01"}'), 'Eigenaar Uren BV') -> 'uren', '5.5',
  'van and tot are inclusive');
select is(tests.fout(:'org', 'eigenaar', 'uren', '{"van": "2026-05-02", "tot": "2026-05-01"}'), 'ongeldige_parameters:tot', 'tot before van');
select is(tests.fout(:'org', 'eigenaar', 'uren', '{"van": "2026-02-30"}'), 'ongeldige_parameters:van', 'a date that does not exist');
select is(tests.fout(:'org', 'eigenaar', 'uren', jsonb_build_object('user_id', tests.lid(:'ander', 'lid'))), 'ongeldige_parameters:user_id',
  'a person of another organisation');
select is(tests.fout(:'org', 'eigenaar', 'uren', '{"van": "0000-01-01"}'), 'ongeldige_parameters:van', 'no year 0');

-- This month in the organisation's time zone: 23:30 UTC on 31 May is 1 June in Amsterdam.
set local koers.nu = '2026-05-31T23:30:00Z';
select is(pg_temp.u('eigenaar') ->> 'van', '2026-06-01', 'this month is the organisation''s');

select throws_ok(format('insert into app.uren (org_id, user_id, datum, uren, taak_id, project_id) values (%L, %L, %L, 1, %L, %L)',
                        :'org', :'lid', '2026-05-02', :'los', :'website'), '23514', null, 'an hour goes to one thing at most');

select * from finish();
rollback;
