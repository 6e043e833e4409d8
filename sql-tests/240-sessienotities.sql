-- sessienotities: newest first, 5 by default; a concept note only for the coach (right 'alles'),
-- established notes for every role with the operation ('eigen').
begin;
select plan(14);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Sessie BV') as org \gset
select tests.lid(:'org', 'coach') as coach \gset
select tests.lid(:'org', 'lid') as lid \gset
-- The world: a concept note 'Kwartaalsessie' of 1 May by the coach, with one action point.
insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, highlights, besluiten, status, geschreven_door, aangemaakt_op)
  values (:'org', '2026-04-01', 'Maandsessie', 'maand', 'April', '["Groei"]', '["Stoppen met X", "Nieuwe prijs"]', 'vastgesteld', :'coach', '2026-04-01')
  returning id as april \gset
insert into app.sessie_actiepunten (org_id, notitie_id, tekst, eigenaar_user_id, deadline, volgorde) values
  (:'org', :'april', 'Mailen', null, null, 2), (:'org', :'april', 'Bellen', :'lid', '2026-05-01', 1);
insert into app.sessienotities (org_id, datum, titel, soort, samenvatting, status, aangemaakt_op)
  select :'org', d, 'Sessie ' || to_char(d, 'MM-DD'), 'check_in', 'Kort', 'vastgesteld', d
  from generate_series(date '2026-03-01', date '2026-03-06', interval '1 day') d;

create function pg_temp.s(_rol text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Sessie BV'), _rol, 'sessienotities', _p)
$$;
create function pg_temp.titels(_antwoord jsonb) returns text[] language sql as $$
  select coalesce(array_agg(x ->> 'titel' order by n), '{}') from jsonb_array_elements(_antwoord -> 'sessienotities') with ordinality x (x, n)
$$;

select is(pg_temp.titels(pg_temp.s('coach')), array['Kwartaalsessie', 'Maandsessie', 'Sessie 03-06', 'Sessie 03-05', 'Sessie 03-04'],
  'the coach: newest first, five by default, the concept too');
select is(pg_temp.s('coach') #>> '{sessienotities,0,status}', 'concept', 'marked as concept');
select is(pg_temp.titels(pg_temp.s('lid')), array['Maandsessie', 'Sessie 03-06', 'Sessie 03-05', 'Sessie 03-04', 'Sessie 03-03'],
  'a member sees established notes only');
select is(pg_temp.titels(pg_temp.s('eigenaar')), pg_temp.titels(pg_temp.s('lid')), 'so does the owner: a concept is for the coach');
select is(pg_temp.s('mt') -> 'sessienotities' -> 0,
  jsonb_build_object('id', :'april', 'datum', '2026-04-01', 'titel', 'Maandsessie', 'soort', 'maand', 'status', 'vastgesteld',
    'samenvatting', 'April', 'highlights', '["Groei"]'::jsonb, 'besluiten', '["Stoppen met X", "Nieuwe prijs"]'::jsonb, 'learnings', '[]'::jsonb,
    'actiepunten', jsonb_build_array(
      jsonb_build_object('tekst', 'Bellen', 'eigenaar', tests.persoon(:'org', :'lid'), 'deadline', '2026-05-01'),
      jsonb_build_object('tekst', 'Mailen', 'eigenaar', null, 'deadline', null))),
  'date, soort, summary, highlights, decisions, learnings, action points in order with owner and deadline (may be empty)');
select is(pg_temp.titels(pg_temp.s('lid', '{"aantal": 2}')), array['Maandsessie', 'Sessie 03-06'], 'aantal: so many sessions back');
select is(jsonb_array_length(pg_temp.s('coach', '{"aantal": 100}') -> 'sessienotities'), 8, 'all of them when asked');
select is(tests.fout(:'org', 'lid', 'sessienotities', '{"aantal": 0}') || ' ' || tests.fout(:'org', 'lid', 'sessienotities', '{"aantal": 101}'),
  'ongeldige_parameters:aantal ongeldige_parameters:aantal', 'aantal from 1 to 100');

-- Reading the tables directly shows no more.
select is(tests.rijen(:'org', 'lid', 'app.sessienotities'), 7::bigint, 'a member reads the established notes');
select is(tests.rijen(:'org', 'lid', 'app.sessie_actiepunten'), 2::bigint, 'and only their action points');
select is(tests.rijen(:'org', 'coach', 'app.sessie_actiepunten'), 3::bigint, 'the coach every action point');

-- Rights are data: an organisation may show concepts to its owner, or hide notes from members.
insert into app.org_rechten (org_id, operatie, rol, recht) values (:'org', 'sessienotities', 'eigenaar', 'alles'),
  (:'org', 'sessienotities', 'lid', 'geen');
select is(pg_temp.titels(pg_temp.s('eigenaar', '{"aantal": 1}')), array['Kwartaalsessie'], 'an owner given alles sees the concept');
select is(tests.rijen(:'org', 'lid', 'app.sessienotities'), 0::bigint, 'a member given geen reads nothing');
select is(pg_temp.s('lid') -> 'sessienotities', '[]', 'and gets nothing');

select * from finish();
rollback;
