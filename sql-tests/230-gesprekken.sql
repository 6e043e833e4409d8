-- gesprekken: who, with whom, soort, date, completed, classification; with access to Team the
-- whole team, otherwise the caller's own and those the caller leads; filters jaar, alleen_open.
begin;
select plan(15);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Gesprek BV') as org \gset
select * from tests.leden(:'org') \gset
-- The world: a conversation about the member, led by the owner, 1 March 2026, open.
insert into app.gesprekken (org_id, medewerker_user_id, leider_user_id, soort, datum, afgerond, eindclassificatie) values
  (:'org', :'mt', :'admin', 'beoordeling', '2025-11-10', true, 'B'),
  (:'org', :'admin', :'lid', 'functionering', '2026-02-01', true, 'A'),
  (:'org', :'eigenaar', :'mt', 'beoordeling', '2026-12-31', false, null);

create function pg_temp.g(_rol text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Gesprek BV'), _rol, 'gesprekken', _p)
$$;
-- Each conversation as "who/with whom/date".
create function pg_temp.lijst(_antwoord jsonb) returns text[] language sql as $$
  select coalesce(array_agg(split_part(x #>> '{wie,naam}', ' ', 1) || '/' || split_part(x #>> '{met,naam}', ' ', 1) || '/' || (x ->> 'datum')
                            order by n), '{}')
  from jsonb_array_elements(_antwoord -> 'gesprekken') with ordinality x (x, n)
$$;

select is(pg_temp.lijst(pg_temp.g('eigenaar')),
  array['Eigenaar/Mt/2026-12-31', 'Lid/Eigenaar/2026-03-01', 'Admin/Lid/2026-02-01', 'Mt/Admin/2025-11-10'],
  'with access to Team the whole team, newest first');
select is(pg_temp.g('eigenaar') -> 'hele_team', 'true', 'and the answer says so');
select is((select x - 'id' from jsonb_array_elements(pg_temp.g('eigenaar') -> 'gesprekken') x where x ->> 'datum' = '2026-02-01'),
  jsonb_build_object('wie', tests.persoon(:'org', :'admin'), 'met', tests.persoon(:'org', :'lid'),
    'soort', 'functionering', 'datum', '2026-02-01', 'afgerond', true, 'eindclassificatie', 'A'),
  'who, with whom, soort, date, completed and classification; nothing else');
select is(pg_temp.lijst(pg_temp.g('lid')), array['Lid/Eigenaar/2026-03-01', 'Admin/Lid/2026-02-01'],
  'a member: their own and those they lead');
select is(pg_temp.g('lid') -> 'hele_team', 'false', 'and is told it is not the whole team');
select is(tests.rijen(:'org', 'lid', 'app.gesprekken'), 2::bigint, 'reading the table directly shows no more');

-- Access to Team: the team section released and readable by the role.
select beheer.secties_zetten(:'org', array['team'], false);
select is(pg_temp.lijst(pg_temp.g('mt')), array['Eigenaar/Mt/2026-12-31', 'Mt/Admin/2025-11-10'],
  'without the team section MT sees only their own and those they lead');
select is(tests.rijen(:'org', 'mt', 'app.gesprekken'), 2::bigint, 'so does the table');
select beheer.secties_zetten(:'org', array['team'], true);
insert into app.org_rechten (org_id, operatie, rol, recht) values (:'org', 'team', 'mt', 'geen');
select is(pg_temp.g('mt') -> 'hele_team', 'false', 'nor when MT may not read the team section');
delete from app.org_rechten where org_id = :'org' and operatie = 'team' and rol = 'mt';

-- Filters
select is(pg_temp.lijst(pg_temp.g('admin', '{"jaar": 2026}')),
  array['Eigenaar/Mt/2026-12-31', 'Lid/Eigenaar/2026-03-01', 'Admin/Lid/2026-02-01'], 'jaar: that year, to its last day');
select is(pg_temp.lijst(pg_temp.g('admin', '{"alleen_open": "ja"}')), array['Eigenaar/Mt/2026-12-31', 'Lid/Eigenaar/2026-03-01'],
  'alleen_open: not yet completed');
select is(pg_temp.lijst(pg_temp.g('lid', '{"jaar": "2025", "alleen_open": true}')), '{}', 'filters combine, within what the caller sees');
select is(tests.fout(:'org', 'admin', 'gesprekken', '{"jaar": 0}') || ' ' || tests.fout(:'org', 'admin', 'gesprekken', '{"alleen_open": "misschien"}'),
  'ongeldige_parameters:jaar ongeldige_parameters:alleen_open', 'no year 0; a flag is ja or nee');

select is(pg_temp.g('coach') -> 'gesprekken', '[]', 'a coach sees no conversation (the door answers rol_mag_niet)');
select beheer.secties_zetten(:'org', array['reviews'], false);
select is(tests.rijen(:'org', 'lid', 'app.gesprekken'), 0::bigint, 'without the reviews section nothing, not even one''s own');

select * from finish();
rollback;
