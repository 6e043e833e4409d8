-- sessienotitie_schrijven: stores a note as concept (visible to the coach only); highlights,
-- besluiten and learnings are texts, actiepunten {tekst, eigenaar_user_id, deadline}; other
-- shapes are refused by name.
begin;
select plan(22);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Notitie BV') as org \gset
select tests.wereld('Ander BV') as ander \gset
select tests.lid(:'org', 'coach') as coach \gset
select tests.lid(:'org', 'lid') as lid \gset

create function pg_temp.invoer(_extra jsonb default '{}') returns jsonb language sql as $$
  select '{"datum": "2026-05-14", "titel": "Kwartaalstart", "soort": "kwartaal", "samenvatting": "Plannen voor Q2"}'::jsonb || _extra
$$;
create function pg_temp.fout(_extra jsonb, _rol text default 'coach') returns text language sql as $$
  select tests.fout((select org_id from app.organisaties where naam = 'Notitie BV'), _rol, 'sessienotitie_schrijven', pg_temp.invoer(_extra))
$$;

create temp table r as select tests.roep(:'org', 'coach', 'sessienotitie_schrijven', pg_temp.invoer(jsonb_build_object(
  'highlights', jsonb_build_array(' Groei ', 'Team'), 'besluiten', jsonb_build_array('Prijs omhoog'),
  'actiepunten', jsonb_build_array(
    jsonb_build_object('tekst', 'Offerte maken', 'eigenaar_user_id', upper(:'lid'), 'deadline', '2026-06-01'),
    jsonb_build_object('tekst', 'Evalueren', 'eigenaar_user_id', null, 'deadline', ''))))) as r;
select is((select r -> 'voorstel' from r), jsonb_build_object(
    'datum', app_hidden.veld(null, '"2026-05-14"'), 'titel', app_hidden.veld(null, '"Kwartaalstart"'),
    'soort', app_hidden.veld(null, '"kwartaal"'), 'samenvatting', app_hidden.veld(null, '"Plannen voor Q2"'),
    'highlights', app_hidden.veld(null, '["Groei", "Team"]'), 'besluiten', app_hidden.veld(null, '["Prijs omhoog"]'),
    'learnings', app_hidden.veld(null, '[]'), 'status', app_hidden.veld(null, '"concept"'),
    'actiepunten', app_hidden.veld(null, jsonb_build_array(
      jsonb_build_object('tekst', 'Offerte maken', 'eigenaar', app_hidden.persoon(:'org', :'lid'), 'deadline', '2026-06-01'),
      jsonb_build_object('tekst', 'Evalueren', 'eigenaar', null, 'deadline', null)))),
  'the proposal shows every field, action points with owner and deadline (empty when not mentioned)');
select is((select r #>> '{resultaat,sessienotitie,status}' from r), 'concept', 'stored as concept');
select is((select (status, geschreven_door, datum)::text from app.sessienotities where titel = 'Kwartaalstart'),
  (select ('concept', :'coach'::uuid, date '2026-05-14')::text), 'written by the caller, for the session date');
select is((select array_agg(a.tekst || '/' || coalesce(a.eigenaar_user_id::text, '-') || '/' || coalesce(a.deadline::text, '-') order by a.volgorde)
           from app.sessie_actiepunten a join app.sessienotities n on n.org_id = a.org_id and n.id = a.notitie_id
           where n.titel = 'Kwartaalstart'),
  array['Offerte maken/' || :'lid' || '/2026-06-01', 'Evalueren/-/-'], 'action points are rows, in the order given');
select is((select r #>> '{resultaat,sessienotitie,id}' from r), (select id::text from app.sessienotities where titel = 'Kwartaalstart'),
  'the answer names the note''s id (for establishing it in the app)');
select is((select array_agg(x ->> 'titel') from jsonb_array_elements(tests.roep(:'org', 'coach', 'sessienotities', '{"aantal": 1}') -> 'sessienotities') x),
  array['Kwartaalstart'], 'the coach sees the concept');

-- An owner may write too; the concept is then the coach's to see, not the writer's.
select is(tests.roep(:'org', 'eigenaar', 'sessienotitie_schrijven', pg_temp.invoer('{"titel": "Door eigenaar", "actiepunten": [{"tekst": "X"}]}'))
          #>> '{resultaat,sessienotitie,actiepunten,0,tekst}', 'X', 'an owner writes a note, and gets it back');
select is((select array_agg(x ->> 'titel') from jsonb_array_elements(tests.roep(:'org', 'eigenaar', 'sessienotities', '{}') -> 'sessienotities') x
           where x ->> 'titel' = 'Door eigenaar'), null, 'which only the coach sees');
select is(pg_temp.fout('{}', 'lid'), '42501', 'a member may not write notes (the door answers rol_mag_niet; here the policy)');

-- Domain rules
select is(pg_temp.fout('{"datum": "2026-05-15"}'), 'ongeldige_parameters:datum', 'a session in the future is refused');
select is(pg_temp.fout('{"datum": "2026-02-30"}') || ' ' || pg_temp.fout('{"datum": "0000-01-01"}'),
  'ongeldige_parameters:datum ongeldige_parameters:datum', 'a date that does not exist; no year 0');
select is(pg_temp.fout('{"soort": "jaar"}') || ' ' || pg_temp.fout('{"samenvatting": " "}'),
  'ongeldige_parameters:soort ongeldige_parameters:samenvatting', 'soort from the list; summary required');

-- Element shapes, refused by name
select is(pg_temp.fout('{"actiepunten": ["Bellen"]}'), 'ongeldige_parameters:actiepunten', 'an action point is an object, not a text');
select is(pg_temp.fout('{"actiepunten": [{"tekst": "X", "wie": "Anna"}]}'), 'ongeldige_parameters:actiepunten', 'with known keys only');
select is(pg_temp.fout('{"actiepunten": [{"eigenaar_user_id": null}]}'), 'ongeldige_parameters:actiepunten', 'with a text');
select is(pg_temp.fout('{"actiepunten": [{"tekst": "X", "eigenaar_user_id": "Anna"}]}'), 'ongeldige_parameters:actiepunten', 'owner a uuid');
select is(pg_temp.fout(jsonb_build_object('actiepunten', jsonb_build_array(jsonb_build_object('tekst', 'X', 'eigenaar_user_id', tests.lid(:'ander', 'lid'))))),
  'ongeldige_parameters:actiepunten', 'owner a member of this organisation');
select is(pg_temp.fout('{"actiepunten": [{"tekst": "X", "deadline": "2026-02-30"}]}'), 'ongeldige_parameters:actiepunten',
  'deadline a date that exists');
select is(pg_temp.fout('{"actiepunten": [{"tekst": "X", "deadline": {"a": {"b": 1}}}]}'), 'ongeldige_parameters:actiepunten', 'nothing nested');
select is(pg_temp.fout('{"highlights": [{"tekst": "Groei"}]}'), 'ongeldige_parameters:highlights', 'a highlight is a text');
select is(pg_temp.fout(jsonb_build_object('learnings', (select jsonb_agg(i::text) from generate_series(1, 51) i))),
  'ongeldige_parameters:learnings', 'at most 50 learnings');
select is((select count(*)::int from app.sessienotities where org_id = :'org' and aangemaakt_op = '2026-05-14T10:00:00+02:00'), 2,
  'refused calls wrote nothing');

select * from finish();
rollback;
