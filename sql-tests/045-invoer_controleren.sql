-- app_hidden.invoer_controleren: every call's input against the registry's rule for each
-- parameter (app.operatie_parameters), normalised to the type the operation receives.
begin;
select plan(44);

-- Both add an org_id (in capitals, to see it normalised) unless the input has its own.
create function pg_temp.ok(_op text, _p jsonb) returns jsonb language sql as $$
  select invoer from app_hidden.invoer_controleren(_op, '{"org_id": "6A1B2C3D-0000-4000-8000-000000000001"}' || _p)
$$;
create function pg_temp.fout(_op text, _p jsonb) returns text language sql as $$
  select (fout ->> 'parameter') || ': ' || (fout ->> 'bericht')
  from app_hidden.invoer_controleren(_op, '{"org_id": "6A1B2C3D-0000-4000-8000-000000000001"}' || _p)
$$;

-- Types from text (query strings and forms) become their JSON type
select is(pg_temp.ok('taken', '{"nummer": "12"}') -> 'nummer', '12', 'an integer from text');
select is(pg_temp.ok('taken', '{"ook_afgesloten": "ja"}') -> 'ook_afgesloten', 'true', 'a flag ja');
select is(pg_temp.ok('taken', '{"ook_afgesloten": "false"}') -> 'ook_afgesloten', 'false', 'a flag false');
select is(pg_temp.ok('taken', '{"ook_afgesloten": true}') -> 'ook_afgesloten', 'true', 'a JSON boolean');
select is(pg_temp.ok('taken', '{"tags": "Sales, klant,,"}') -> 'tags', '["Sales", "klant"]', 'a comma list');
select is(pg_temp.ok('taken', '{"tags": ["a", " b "]}') -> 'tags', '["a", "b"]', 'a JSON list, trimmed');
select is(pg_temp.ok('kpi_meting_invoeren', '{"kpi_id": "6a1b2c3d-0000-4000-8000-000000000002", "waarde": "12.5"}') -> 'waarde',
  '12.5', 'a number from text');
select is(pg_temp.ok('taken', '{}') ->> 'org_id', '6a1b2c3d-0000-4000-8000-000000000001', 'a uuid in lower case');
select is(pg_temp.ok('project_aanmaken', '{"titel": "  Webshop  ", "eigenaar_user_id": "6a1b2c3d-0000-4000-8000-000000000002"}') ->> 'titel',
  'Webshop', 'text is trimmed');
select is(pg_temp.ok('taken', '{"week": "", "soort": "   "}'), '{"org_id": "6a1b2c3d-0000-4000-8000-000000000001"}',
  'empty text counts as not given');
select is(pg_temp.ok('taak_bijwerken', '{"taak_id": "6a1b2c3d-0000-4000-8000-000000000002", "deadline": null}') -> 'deadline',
  'null', 'null is kept where it clears a value (text)');
select is(pg_temp.ok('taak_bijwerken', '{"taak_id": "6a1b2c3d-0000-4000-8000-000000000002", "inschatting_uren": "4"}') -> 'inschatting_uren',
  '4', 'numeric text from text');

-- Refusals, each naming its parameter
select is((select (fout ->> 'parameter') || ': ' || (fout ->> 'bericht') from app_hidden.invoer_controleren('taken', '{}')),
  'org_id: org_id is verplicht.', 'a required parameter');
select is(pg_temp.fout('taken', '{"kleur": "rood"}'),
  'kleur: Onbekende parameter kleur. De index op /api/v1 noemt de parameters.', 'an unknown parameter');
select is(pg_temp.fout('taken', '{"constructor": "x"}') ~ '^constructor: Onbekende', true, 'a name every object inherits is unknown');
select is(pg_temp.fout('taken', '{"__proto__": {}}') ~ '^__proto__: Onbekende', true, 'so is __proto__');
select is((select fout ->> 'bericht' from app_hidden.invoer_controleren('taken', '"tekst"')), 'De invoer moet een JSON-object zijn.',
  'input that is not an object');
select is(pg_temp.fout('taken', '{"org_id": "acme"}'), 'org_id: org_id moet een uuid zijn.', 'a uuid');
select is(pg_temp.fout('taken', '{"nummer": "een"}'), 'nummer: nummer moet een geheel getal zijn.', 'an integer');
select is(pg_temp.fout('taken', '{"nummer": 1.5}'), 'nummer: nummer moet een geheel getal zijn.', 'a whole number');
select is(pg_temp.fout('taken', '{"nummer": 0}'), 'nummer: nummer moet minstens 1 zijn.', 'a minimum');
select is(pg_temp.fout('taken', '{"ook_afgesloten": "misschien"}'), 'ook_afgesloten: ook_afgesloten moet ja of nee zijn.', 'a flag');
select is(pg_temp.fout('taken', '{"soort": "alles"}'), 'soort: soort moet een van prioriteit, project, los zijn.',
  'a choice names its values (from app.keuzes)');
select is(pg_temp.fout('taken', '{"week": "2026-W7"}'),
  'week: week moet een ISO-week zijn als 2026-W07, of deze of volgende.', 'a pattern, with what it asks for');
select is(pg_temp.fout('taken', '{"tags": [1]}'), 'tags: tags moet een lijst van teksten zijn.', 'list elements are texts');
select is(pg_temp.fout('taken', jsonb_build_object('org_id', '6a1b2c3d-0000-4000-8000-000000000001', 'tags', to_jsonb(array[repeat('x', 51)]))),
  'tags: tags heeft een element dat te lang is (hoogstens 50 tekens).', 'list elements have a longest length');
select is(pg_temp.fout('taken', jsonb_build_object('org_id', '6a1b2c3d-0000-4000-8000-000000000001',
  'tags', (select jsonb_agg(i::text) from generate_series(1, 51) i))), 'tags: tags heeft te veel elementen (hoogstens 50).', 'a list has a most');
select is(pg_temp.fout('taken', '{"tags": {"a": 1}}'), 'tags: tags moet een lijst zijn.', 'a list');
select is(pg_temp.fout('project_aanmaken', jsonb_build_object('org_id', '6a1b2c3d-0000-4000-8000-000000000001',
  'titel', repeat('x', 201), 'eigenaar_user_id', '6a1b2c3d-0000-4000-8000-000000000002')),
  'titel: titel is te lang (hoogstens 200 tekens).', 'a longest text');
select is(pg_temp.fout('project_aanmaken', '{"titel": 5, "eigenaar_user_id": "6a1b2c3d-0000-4000-8000-000000000002"}'),
  'titel: titel moet tekst zijn.', 'text is text');
select is(pg_temp.fout('taak_bijwerken', '{"taak_id": "6a1b2c3d-0000-4000-8000-000000000002", "inschatting_uren": -1}'),
  'inschatting_uren: inschatting_uren moet minstens 0 zijn.', 'a range on numeric text');
-- A list of objects (sessienotitie_schrijven's actiepunten): each element only the known keys,
-- each key checked and normalised by its own rule.
create function pg_temp.notitie(_actiepunten jsonb) returns jsonb language sql as $$
  select '{"datum": "2026-05-14", "titel": "T", "soort": "maand", "samenvatting": "S"}'::jsonb || jsonb_build_object('actiepunten', _actiepunten)
$$;
select is(pg_temp.ok('sessienotitie_schrijven', pg_temp.notitie(
    '[{"tekst": " Bellen ", "eigenaar_user_id": "6A1B2C3D-0000-4000-8000-000000000002", "deadline": ""}, {"tekst": "Mailen", "deadline": null}]')) -> 'actiepunten',
  '[{"tekst": "Bellen", "eigenaar_user_id": "6a1b2c3d-0000-4000-8000-000000000002"}, {"tekst": "Mailen"}]',
  'elements are normalised key by key; an empty key is not given');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('["Bellen"]')),
  'actiepunten: actiepunten moet een lijst van objecten zijn met tekst, eigenaar_user_id, deadline; element 1 is geen object.',
  'an element is an object, and the refusal names its keys');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('[{"tekst": "X"}, {"tekst": "Y", "wie": "Anna"}]')),
  'actiepunten: actiepunten element 2: onbekende sleutel wie; kies uit tekst, eigenaar_user_id, deadline.', 'an unknown key, by element');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('[{"deadline": "2026-06-01"}]')),
  'actiepunten: actiepunten element 1: tekst is verplicht.', 'a required key');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('[{"tekst": "X", "eigenaar_user_id": 7}]')),
  'actiepunten: actiepunten element 1: eigenaar_user_id moet een uuid zijn.', 'a key of the wrong type');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('[{"tekst": "X", "deadline": "1 juni"}]')),
  'actiepunten: actiepunten element 1: deadline moet een datum zijn als jjjj-mm-dd.', 'a key''s pattern');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie(jsonb_build_array(jsonb_build_object('tekst', repeat('x', 501))))),
  'actiepunten: actiepunten element 1: tekst is te lang (hoogstens 500 tekens).', 'a key''s longest text');
select is(pg_temp.fout('sessienotitie_schrijven', pg_temp.notitie('"Bellen, Mailen"')),
  'actiepunten: actiepunten moet een lijst van objecten zijn met tekst, eigenaar_user_id, deadline; element 1 is geen object.',
  'comma-separated text is no list of objects');
select is(pg_temp.ok('sessienotitie_schrijven', pg_temp.notitie('"[{\"tekst\": \"Bellen\"}]"')) -> 'actiepunten', '[{"tekst": "Bellen"}]',
  'from a form, a list of objects as JSON text');
select is(pg_temp.ok('strategie_bijwerken', '{"velden": "{\"bhag\": \"Groot\"}"}') -> 'velden', '{"bhag": "Groot"}',
  'from a form, an object as JSON text');
select is(pg_temp.fout('strategie_bijwerken', '{"velden": "{\"bhag\": "}'), 'velden: velden moet een object zijn.',
  'text that is no JSON object is refused by name');
-- An object's values are texts, trimmed.
select is(pg_temp.ok('strategie_bijwerken', '{"velden": {"bhag": "  Groot  "}}') -> 'velden', '{"bhag": "Groot"}', 'object values are trimmed');
-- Every parameter of every operation: a value of the wrong shape is refused naming it (or a
-- required parameter before it), and no message says undefined.
select is((select count(*)::int from app.operatie_parameters d,
             app_hidden.invoer_controleren(d.operatie, jsonb_build_object('org_id', '6a1b2c3d-0000-4000-8000-000000000001')
                                                       || jsonb_build_object(d.naam, '{"a": {"b": 1}}'::jsonb)) c
           where c.fout is null or c.fout ->> 'parameter' is null or c.fout ->> 'bericht' ~* 'undefined'
              or (c.fout ->> 'parameter' <> d.naam and not exists (
                    select 1 from app.operatie_parameters e
                    where e.operatie = d.operatie and e.verplicht and e.volgorde < d.volgorde and e.naam = c.fout ->> 'parameter'))),
  0, 'every parameter of every operation refuses a wrong shape by name');

select * from finish();
rollback;
