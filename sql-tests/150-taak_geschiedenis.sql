-- taak_geschiedenis: written by triggers for every kind of change, newest first, who (empty is
-- automatic), when, old and new value.
begin;
select plan(14);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Historie BV') as org \gset
select tests.lid(:'org', 'mt') as mt \gset
create temp table t as select tests.roep(:'org', 'lid', 'taak_toevoegen', '{"omschrijving": "Plan maken", "tags": ["Plan"]}') #>> '{resultaat,taak,nummer}' as nr;
set local koers.nu = '2026-05-14T11:00:00+02:00';
select tests.roep(:'org', 'mt', 'taak_bijwerken', jsonb_build_object('taak_id', (select id from app.taken where org_id = :'org' and nummer = (select nr::int from t)),
  'stand', 'in_uitvoering', 'omschrijving', 'Plan schrijven', 'deadline', '2026-06-01', 'week', 'deze', 'eigenaar_user_id', :'mt', 'tags', '[]'::jsonb));
-- What follows is done by the app (no door call): forget the last call.
select set_config('koers.aanroep', '', true);
update app.taken set toelichting = 'Met cijfers' where org_id = :'org' and nummer = (select nr::int from t);
insert into app.bijlagen (org_id, taak_id, naam) select :'org', id, 'plan.pdf' from app.taken where org_id = :'org' and nummer = (select nr::int from t);
update app.taken set verwijderd_op = app_hidden.nu() where org_id = :'org' and nummer = (select nr::int from t);
update app.taken set verwijderd_op = null where org_id = :'org' and nummer = (select nr::int from t);

create temp table g as select tests.roep(:'org', 'lid', 'taak_geschiedenis', jsonb_build_object('nummer', (select nr::int from t))) as r;
select is((select array_agg(x ->> 'soort') from g, jsonb_array_elements(r -> 'geschiedenis') x),
  array['verwijderd', 'bijlagen', 'toelichting', 'tags', 'titel', 'week', 'deadline', 'eigenaar', 'stand', 'aangemaakt'],
  'every kind of change, newest first');
select is((select x -> 'nieuw' -> 'tags' from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'aangemaakt'),
  '["Plan"]', 'tags given at creation are part of the creation');
select is((select x #>> '{door,naam}' from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'stand'),
  'Mt Historie BV', 'who made the change');
select is((select x ->> 'tijdstip' from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'stand'),
  '2026-05-14T09:00:00+00:00', 'when, by the clock');
select is((select jsonb_build_array(x -> 'oud', x -> 'nieuw') from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'stand'),
  '["open", "bezig"]', 'old and new value, read-side names');
select is((select jsonb_build_array(x -> 'oud', x -> 'nieuw') from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'titel'),
  '["Plan maken", "Plan schrijven"]', 'a new title');
select is((select x -> 'door' from g, jsonb_array_elements(r -> 'geschiedenis') x where x ->> 'soort' = 'toelichting'),
  'null', 'a change without a caller (the app, the database) names nobody');
select is(tests.fout(:'org', 'lid', 'taak_geschiedenis', '{}'), 'ongeldige_parameters:nummer', 'nummer is required');
-- Two tags added by one change, then two removed by another: each entry holds the tags before
-- and after that change (a statement that adds or removes several tags at once).
create temp table t2 as select (tests.roep(:'org', 'lid', 'taak_toevoegen', '{"omschrijving": "Tags", "tags": ["Plan"]}') #>> '{resultaat,taak,id}')::uuid as id;
select tests.roep(:'org', 'mt', 'taak_bijwerken', jsonb_build_object('taak_id', (select id from t2), 'tags', '["Plan", "beta", "Alfa"]'::jsonb));
select tests.roep(:'org', 'mt', 'taak_bijwerken', jsonb_build_object('taak_id', (select id from t2), 'tags', '["beta"]'::jsonb));
select is((select jsonb_agg(jsonb_build_array(x -> 'oud', x -> 'nieuw'))
           from jsonb_array_elements(tests.roep(:'org', 'lid', 'taak_geschiedenis',
                  jsonb_build_object('nummer', (select nummer from app.taken where org_id = :'org' and id = (select id from t2)))) -> 'geschiedenis') x
           where x ->> 'soort' = 'tags'),
  '[[["Alfa", "beta", "Plan"], ["beta"]], [["Plan"], ["Alfa", "beta", "Plan"]]]',
  'several tags added or removed at once: the tags before and after each change');
select is((select count(*) from app.gebeurtenissen where org_id = :'org' and onderwerp_id = (select id from t2) and soort = 'taak.gewijzigd'),
  2::bigint, 'one taak.gewijzigd per change of several tags');
-- One statement over several tasks (as the app): each task its history entries in field order
-- and its event, each repeating one its next occurrence with its tags.
select set_config('koers.aanroep', '', true);
insert into app.taken (org_id, omschrijving, herhalen)
values (:'org', 'Reeks 1', 'week'), (:'org', 'Reeks 2', null), (:'org', 'Reeks 3', 'maand');
create temp table drie as select id, nummer from app.taken where org_id = :'org' and omschrijving like 'Reeks _';
insert into app.tags (org_id, naam) values (:'org', 'Reeks');
insert into app.taak_tags (org_id, taak_id, tag_id) select :'org', d.id, g.id from drie d, app.tags g where g.org_id = :'org' and g.naam = 'Reeks';
update app.taken set stand = 'voltooid', deadline = date '2026-05-20' where org_id = :'org' and id in (select id from drie);
select is((select jsonb_agg(jsonb_build_array(d.nummer, (select jsonb_agg(g.soort order by g.id) from app.taak_geschiedenis g
                                                         where g.org_id = :'org' and g.taak_id = d.id)) order by d.nummer) from drie d),
  (select jsonb_agg(jsonb_build_array(d.nummer, '["aangemaakt", "stand", "deadline"]'::jsonb) order by d.nummer) from drie d),
  'a statement over several tasks: each its entries, in field order (the tags, in the same transaction, are part of the creation)');
select is((select jsonb_agg(jsonb_build_array(t.omschrijving, t.deadline, t.tag_namen, t.stand) order by t.omschrijving) from app.taken t
           where t.org_id = :'org' and t.herhaling_van in (select id from drie)),
  '[["Reeks 1", "2026-05-27", ["Reeks"], "open"], ["Reeks 3", "2026-06-20", ["Reeks"], "open"]]',
  'each repeating task done in that statement gets its next occurrence, with its tags');
select is((select jsonb_agg(g.soort order by g.soort) from app.gebeurtenissen g where g.org_id = :'org' and g.onderwerp_id in (select id from drie)),
  '["taak.aangemaakt", "taak.aangemaakt", "taak.aangemaakt", "taak.klaar", "taak.klaar", "taak.klaar"]',
  'each task of that statement its events (created, tagged and done in one transaction: created and done)');
select app_hidden.handelen_namens(:'org', :'mt');
set local role koers_door;
select throws_ok($$ insert into app.taak_geschiedenis (org_id, taak_id, soort, tijdstip) select org_id, id, 'stand', now() from app.taken limit 1 $$,
  '42501', null, 'history is written by triggers only');
reset role;

select * from finish();
rollback;
