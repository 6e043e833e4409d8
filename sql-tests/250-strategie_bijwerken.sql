-- strategie_bijwerken: only owner, admin or MT; only the canvas keys; a field not given stays;
-- stores a proposal with current and new text per field and answers with it and its id.
begin;
select plan(17);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Strategie BV') as org \gset
select tests.wereld('Leeg BV') as leeg \gset
select tests.lid(:'org', 'eigenaar') as eigenaar \gset
select tests.lid(:'org', 'mt') as mt \gset
-- The world: the canvas has bhag 'Marktleider'; one (empty) proposal by the owner exists.

create function pg_temp.fout(_velden jsonb, _rol text default 'eigenaar') returns text language sql as $$
  select tests.fout((select org_id from app.organisaties where naam = 'Strategie BV'), _rol, 'strategie_bijwerken', jsonb_build_object('velden', _velden))
$$;

create temp table r as select tests.roep(:'org', 'mt', 'strategie_bijwerken', '{"velden": {"bhag": "Nummer één in de Benelux", "thag": "Drie vestigingen"}}') as r;
select is((select (r #> '{resultaat,voorstel}') - 'id' - 'ingediend_op' from r), jsonb_build_object(
    'status', 'open', 'ingediend_door', app_hidden.persoon(:'org', :'mt'),
    'velden', '{"bhag": {"nu": "Marktleider", "wordt": "Nummer één in de Benelux"}, "thag": {"nu": null, "wordt": "Drie vestigingen"}}'::jsonb),
  'the proposal shows per field the current and the new text');
select is((select (v.velden, v.ingediend_door, v.status)::text from app.strategie_voorstellen v, r
           where v.id = (r.r #>> '{resultaat,voorstel,id}')::uuid),
  (select (r #> '{resultaat,voorstel,velden}', :'mt'::uuid, 'open')::text from r), 'and is stored under the id it answers with');
select is((select (bhag, thag)::text from app.strategie where org_id = :'org'), '(Marktleider,)', 'the canvas itself does not change');
select is(tests.roep(:'org', 'admin', 'strategie_bijwerken', '{"velden": {"bhag": "Marktleider", "dna": "Eerlijk"}}') #> '{resultaat,voorstel,velden}',
  '{"dna": {"nu": null, "wordt": "Eerlijk"}}', 'a field that keeps its text is no part of the proposal');
select is(tests.roep(:'org', 'eigenaar', 'strategie_bijwerken', '{"velden": {"bhag": "  "}}') #> '{resultaat,voorstel,velden}',
  '{"bhag": {"nu": "Marktleider", "wordt": null}}', 'empty text empties a field');
select is(tests.roep(:'leeg', 'eigenaar', 'strategie_bijwerken', '{"velden": {"purpose": "Waarom"}}') #> '{resultaat,voorstel,velden}',
  '{"purpose": {"nu": null, "wordt": "Waarom"}}', 'an organisation without a canvas yet');

-- Refusals
select is(pg_temp.fout('{"bhag": "Marktleider"}'), 'ongeldige_parameters:velden', 'nothing changes: refused');
select is(pg_temp.fout('{}'), 'ongeldige_parameters:velden', 'no field at all');
select is(pg_temp.fout('{"missie": "X"}'), 'ongeldige_parameters:velden', 'only the canvas keys');
select is(pg_temp.fout('{"bhag": 5}') || ' ' || pg_temp.fout('{"bhag": {"a": {"b": 1}}}'),
  'ongeldige_parameters:velden ongeldige_parameters:velden', 'texts only');
select is(pg_temp.fout(jsonb_build_object('bhag', repeat('x', 5001))), 'ongeldige_parameters:velden', 'at most 5000 characters');
select is(pg_temp.fout('{"bhag": "X"}', 'lid') || ' ' || pg_temp.fout('{"bhag": "X"}', 'coach'), 'rol_mag_niet rol_mag_niet',
  'a member and a coach are refused (the interface: only owner, admin or MT)');

-- Reading the tables directly shows no more.
select is(tests.rijen(:'org', 'mt', 'app.strategie_voorstellen'), 1::bigint, 'MT reads only the proposals they made');
select is(tests.rijen(:'org', 'lid', 'app.strategie') + tests.rijen(:'org', 'lid', 'app.strategie_voorstellen'), 0::bigint,
  'a member reads neither canvas nor proposals');
select is(tests.rijen(:'org', 'coach', 'app.strategie'), 0::bigint, 'nor does a coach');

-- The canvas keys are defined once (src/choices.ts): each is a text column of app.strategie.
select is((select count(*)::int from unnest(app_hidden.keuzes('strategie_veld')) k
           where not exists (select 1 from information_schema.columns c where c.table_schema = 'app' and c.table_name = 'strategie'
                             and c.column_name = k and c.data_type = 'text')), 0, 'every canvas key is a text column of app.strategie');
select is(cardinality(app_hidden.keuzes('strategie_veld')), 13, 'the thirteen fields of the interface');

select * from finish();
rollback;
