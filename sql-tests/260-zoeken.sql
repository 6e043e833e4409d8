-- zoeken: Dutch stemming and accents, every kind, every filter at its boundary, the number
-- search, the newest hits without text, and what each role may find (sections, modules,
-- private projects, other organisations). Also the searchable text the triggers keep (tags,
-- attachment parts) and what the app does with comments and attachments.
begin;
select plan(67);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Zoek BV') as org \gset
select tests.wereld('Ander Zoek BV') as ander \gset
select tests.lid(:'org', 'eigenaar') as e, tests.lid(:'org', 'lid') as l, tests.lid(:'org', 'mt') as m,
       tests.lid(:'org', 'coach') as c \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select id as web from app.projecten where org_id = :'org' \gset

-- Sorted "soort:titel" of the hits, and the hits themselves.
create function pg_temp.z(_rol text, _p jsonb) returns text[] language sql as $$
  select coalesce(array_agg((x ->> 'soort') || ':' || (x ->> 'titel') order by (x ->> 'soort') || ':' || (x ->> 'titel')), '{}')
  from jsonb_array_elements(tests.roep((select org_id from app.organisaties where naam = 'Zoek BV'), _rol, 'zoeken', _p)
                            -> 'resultaten') x
$$;
create function pg_temp.hits(_rol text, _p jsonb) returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Zoek BV'), _rol, 'zoeken', _p) -> 'resultaten'
$$;
create function pg_temp.fout(_rol text, _p jsonb) returns text language sql as $$
  select tests.fout((select org_id from app.organisaties where naam = 'Zoek BV'), _rol, 'zoeken', _p)
$$;

-- A quarter ago: a done task and a lapsed one.
set local koers.nu = '2026-02-10T12:00:00+01:00';
insert into app.taken (org_id, omschrijving, eigenaar_user_id, aangemaakt_door, stand)
  values (:'org', 'Offerte naar de klant', :'l', :'e', 'voltooid'), (:'org', 'Oude offerte opruimen', :'l', :'e', 'vervallen');
-- Late on 13 May in UTC is 14 May in Amsterdam.
set local koers.nu = '2026-05-13T23:30:00Z';
insert into app.taken (org_id, omschrijving, toelichting, prioriteit_id, eigenaar_user_id, aangemaakt_door)
  values (:'org', 'Taken plannen voor het café', 'Bespreek de crème brûlée', :'prio', :'m', :'l') returning id as t2 \gset
select app_hidden.tags_zetten(:'org', :'t2', array['Sales', 'Marketing']);
set local koers.nu = '2026-05-14T10:00:00+02:00';
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, besloten, aangemaakt_door)
  values (:'org', 'Geheime overname', :'e', '2026-01-01', true, :'e') returning id as geheim \gset
insert into app.taken (org_id, omschrijving, project_id, eigenaar_user_id, aangemaakt_door)
  values (:'org', 'Geheime offerte overname', :'geheim', :'e', :'e') returning id as t5, nummer as n5 \gset
insert into app.opmerkingen (org_id, taak_id, tekst, door_user_id) values
  (:'org', :'t2', 'De leverancier belt terug over de taart', :'e'), (:'org', :'t5', 'Notitie over de overname', :'e');
insert into app.bijlagen (org_id, taak_id, naam, tekst, tekst_plekken, geupload_door)
  values (:'org', :'t2', 'menukaart_zomer.pdf', E'Voorgerechten en soepen\fNagerechten: crème brûlée', array['pagina 1', 'pagina 2'], :'m'),
         (:'org', :'t5', 'overname.pdf', 'Het contract van de overname', null, :'e');
insert into app.kpis (org_id, naam, eenheid, eigenaar_user_id, meetsoort, cadans) values (:'org', 'Klanttevredenheid', 'cijfer', :'m', 'stand', 'month');
update app.lidmaatschappen set functietitel = 'Boekhouder' where org_id = :'org' and user_id = :'m';
insert into app.taken (org_id, omschrijving, aangemaakt_door) values (:'ander', 'Offerte van een ander', tests.lid(:'ander', 'lid'));

-- Words ---------------------------------------------------------------------------------------
select is(pg_temp.z('lid', '{"tekst": "taak"}'), array['taak:Taken plannen voor het café'],
  'Dutch stemming: taak finds taken');
select is(pg_temp.z('lid', '{"tekst": "cafe"}'), array['taak:Taken plannen voor het café'],
  'accents do not count: cafe finds café');
select is(pg_temp.hits('lid', '{"tekst": "cafe"}') -> 0 ->> 'fragment', 'Taken plannen voor het **café**',
  'the snippet marks the match');
select is((select x ->> 'waar' from jsonb_array_elements(pg_temp.hits('lid', '{"tekst": "creme brulee", "soorten": ["taak"]}')) x),
  'toelichting', 'a match in the description says so');
select is((select array_agg(x ->> 'waar' order by x ->> 'waar') from jsonb_array_elements(pg_temp.hits('lid', '{"tekst": "marketing"}')) x),
  array['tags'], 'a task is found by its tags');
select is(pg_temp.z('lid', '{"tekst": "offerte"}'),
  array['bijlage:offerte.pdf', 'taak:Offerte naar de klant', 'taak:Offerte sturen', 'taak:Oude offerte opruimen'],
  'done and lapsed tasks of an earlier quarter are found too; not the other organisation''s, not a private project''s');
select is((select array_agg(x ->> 'stand' order by x ->> 'titel') from jsonb_array_elements(pg_temp.hits('lid', '{"tekst": "offerte", "soorten": ["taak"]}')) x),
  array['klaar', 'open', 'vervallen'], 'each task hit has its stand as the read side names it');
select is((pg_temp.hits('lid', '{"tekst": "taart"}') -> 0) - 'id' - 'bijgewerkt_op' - 'hoort_bij',
  jsonb_build_object('soort', 'opmerking', 'nummer', (select nummer from app.taken where id = :'t2'), 'titel', 'De leverancier belt terug over de taart',
    'stand', 'open', 'waar', 'tekst', 'fragment', 'De leverancier belt terug over de **taart**'),
  'a comment is found, with the task''s number and stand');
select is(pg_temp.hits('lid', '{"tekst": "taart"}') -> 0 -> 'hoort_bij' ->> 'titel', 'Taken plannen voor het café',
  'a comment belongs to its task');
select is((select jsonb_build_object('waar', x ->> 'waar', 'plek', x ->> 'plek', 'fragment', x ->> 'fragment')
           from jsonb_array_elements(pg_temp.hits('lid', '{"tekst": "nagerecht", "soorten": ["bijlage"]}')) x),
  '{"waar": "tekst", "plek": "pagina 2", "fragment": "**Nagerechten**: crème brûlée"}', 'an attachment is found by its file''s text, with the page');
select is(pg_temp.hits('lid', '{"tekst": "zomer"}') -> 0 ->> 'waar', 'naam', 'an attachment is found by its name (split on _ and .)');
select is((pg_temp.hits('lid', '{"tekst": "nieuwe klanten", "soorten": ["prioriteit"]}') -> 0) - 'id' - 'bijgewerkt_op' - 'stand' - 'hoort_bij',
  '{"soort": "prioriteit", "nummer": null, "titel": "Omzet +10%", "afgerond": false, "kwartaal": "Q2-2026", "waar": "kernresultaat", "fragment": "10 **nieuwe** **klanten**"}',
  'a priority is found by its key results');
select is(pg_temp.z('lid', '{"tekst": "klanttevredenheid"}'), array['kpi:Klanttevredenheid'], 'a KPI is found by its name');
select is(pg_temp.z('lid', '{"tekst": "boekhouder"}'), array['persoon:Mt Zoek BV'], 'a person is found by job title');
select is(pg_temp.z('lid', '{"tekst": "website", "soorten": ["project"]}'), array['project:Website'], 'a project is found by its title');
select is(pg_temp.hits('lid', '{"tekst": "verkoop", "soorten": ["persoon"]}') -> 0 -> 'hoort_bij' ->> 'titel', 'Verkoop',
  'a person belongs to their team');
select is(pg_temp.z('lid', '{"tekst": "offerte marketing"}'), '{}', 'all words must match');
select is(pg_temp.z('lid', '{"tekst": "taak marketing"}'), array['taak:Taken plannen voor het café'], 'words may match in different fields');
select is(pg_temp.z('lid', '{"tekst": "\"offerte sturen\""}'), array['taak:Offerte sturen'], 'a phrase in quotes');
select is(pg_temp.z('lid', '{"tekst": "offerte -oude -klant"}'), array['bijlage:offerte.pdf', 'taak:Offerte sturen'], 'words after a minus are excluded');
select is(pg_temp.z('lid', '{"tekst": "de het een"}'), '{}', 'only words without meaning: no hits');

-- #nummer ---------------------------------------------------------------------------------------
select is(pg_temp.z('lid', format('{"tekst": "#%s"}', (select nummer from app.taken where id = :'t2'))::jsonb),
  array['taak:Taken plannen voor het café'], '#<nummer> finds that task');
select is(pg_temp.z('lid', '{"tekst": "#1", "alleen_klaar": true}'), array['taak:Offerte sturen'], '#<nummer> ignores the filters');
select is(pg_temp.z('lid', format('{"tekst": "#%s"}', :n5)::jsonb), '{}', 'not a task in a private project the caller does not work on');
select is(pg_temp.z('lid', '{"tekst": "#99999"}'), '{}', 'a number that does not exist: no hits');

-- Filters --------------------------------------------------------------------------------------
select is(pg_temp.z('lid', '{"tekst": "offerte", "alleen_open": true}'), array['bijlage:offerte.pdf', 'taak:Offerte sturen'],
  'alleen_open: open tasks and the attachments of open tasks');
select is(pg_temp.z('lid', '{"tekst": "offerte", "alleen_klaar": true}'), array['taak:Offerte naar de klant', 'taak:Oude offerte opruimen'],
  'alleen_klaar: done and lapsed');
select is(pg_temp.fout('lid', '{"tekst": "offerte", "alleen_open": true, "alleen_klaar": true}'), 'ongeldige_parameters:alleen_klaar',
  'alleen_open and alleen_klaar together are refused');
select is(pg_temp.z('lid', format('{"tekst": "offerte", "eigenaar_user_id": "%s"}', :'l')::jsonb),
  array['bijlage:offerte.pdf', 'taak:Offerte naar de klant', 'taak:Offerte sturen', 'taak:Oude offerte opruimen'],
  'eigenaar_user_id: tasks, and attachments of tasks, that person owns');
select is(pg_temp.z('lid', format('{"soorten": ["taak", "bijlage", "opmerking"], "aangemaakt_door_user_id": "%s"}', :'m')::jsonb),
  array['bijlage:menukaart_zomer.pdf'], 'aangemaakt_door_user_id: who uploaded the attachment');
select is(pg_temp.z('lid', format('{"soorten": ["taak", "bijlage", "opmerking"], "aangemaakt_door_user_id": "%s"}', :'l')::jsonb),
  array['taak:Taken plannen voor het café'], 'aangemaakt_door_user_id: who created the task');
select is(pg_temp.z('lid', format('{"soorten": ["opmerking"], "aangemaakt_door_user_id": "%s"}', :'e')::jsonb),
  array['opmerking:De leverancier belt terug over de taart', 'opmerking:Goed bezig'], 'aangemaakt_door_user_id: who wrote the comment');
select is(pg_temp.z('lid', format('{"tekst": "taart offerte taak", "hoort_bij_id": "%s"}', :'prio')::jsonb), '{}',
  'hoort_bij_id: all words still count');
select is(pg_temp.z('lid', format('{"hoort_bij_id": "%s", "soorten": ["taak", "opmerking"]}', :'prio')::jsonb),
  array['opmerking:De leverancier belt terug over de taart', 'opmerking:Goed bezig', 'taak:Offerte sturen', 'taak:Taken plannen voor het café'],
  'hoort_bij_id: the tasks under a priority and their comments');
select is(pg_temp.fout('lid', format('{"hoort_bij_id": "%s"}', :'geheim')::jsonb), 'ongeldige_parameters:hoort_bij_id',
  'hoort_bij_id of a private project the caller does not see is refused as unknown');
select is(pg_temp.z('lid', '{"tags": ["sales", "MARKETING"]}'), array['taak:Taken plannen voor het café'],
  'tags: tasks with all of them, letter case does not count');
select is(pg_temp.z('lid', '{"tags": ["sales"], "soorten": ["taak", "opmerking", "kpi"]}'), array['taak:Offerte sturen', 'taak:Taken plannen voor het café'],
  'one tag: every task with it, and nothing else');
select is(pg_temp.z('lid', '{"soorten": ["taak"], "na": "2026-05-14"}'),
  array['taak:Offerte sturen', 'taak:Taken plannen voor het café'], 'na: updated on or after that day, in the organisation''s time zone');
select is(pg_temp.z('lid', '{"soorten": ["taak"], "voor": "2026-05-14"}'),
  array['taak:Offerte naar de klant', 'taak:Oude offerte opruimen'], 'voor: updated before that day');
select is(pg_temp.fout('lid', '{"soorten": ["taak"], "na": "2026-05-14", "voor": "2026-05-14"}'), 'ongeldige_parameters:voor',
  'voor on or before na is refused');
select is(pg_temp.fout('lid', '{"na": "2026-02-30"}'), 'ongeldige_parameters:na', 'a date that does not exist is refused');
select is(pg_temp.fout('lid', '{}'), 'ongeldige_parameters:tekst', 'no text, no kind and no filter: tekst is required');
select is(pg_temp.fout('lid', '{"soorten": ["taak", "iets"]}'), 'ongeldige_parameters:soorten', 'an unknown kind is refused');
select is((select array_agg(x ->> 'titel') from jsonb_array_elements(pg_temp.hits('lid', '{"soorten": ["taak"]}')) x)[1:2],
  array['Offerte sturen', 'Taken plannen voor het café'], 'without text: the newest first');
select is(pg_temp.z('lid', '{"soorten": ["kpi", "persoon"], "alleen_open": true}'), '{}',
  'KPIs and people have no open or done: left out by alleen_open');

-- Who finds what --------------------------------------------------------------------------------
select is(pg_temp.z('eigenaar', '{"tekst": "overname"}'),
  array['bijlage:overname.pdf', 'opmerking:Notitie over de overname', 'project:Geheime overname', 'taak:Geheime offerte overname'],
  'who works on a private project finds it, its tasks, their comments and attachments');
select is(pg_temp.z('lid', '{"tekst": "overname"}'), '{}', 'a member who does not work on it finds none of them');
insert into app.project_leden (org_id, project_id, user_id) values (:'org', :'geheim', :'l');
select is(cardinality(pg_temp.z('lid', '{"tekst": "overname"}')), 4, 'until that member works on it');
update app.secties set vrijgegeven = false where org_id = :'org' and sectie = 'prioriteiten';
select is(pg_temp.z('lid', '{"soorten": ["taak", "bijlage", "opmerking", "prioriteit", "project"]}'), '{}',
  'section prioriteiten withdrawn: no tasks, attachments, comments, priorities or projects');
select is(pg_temp.z('lid', '{"tekst": "klanttevredenheid"}'), array['kpi:Klanttevredenheid'], 'but KPIs still');
update app.secties set vrijgegeven = true where org_id = :'org' and sectie = 'prioriteiten';
update app.secties set vrijgegeven = false where org_id = :'org' and sectie in ('kpis', 'team');
select is(pg_temp.z('lid', '{"tekst": "klanttevredenheid boekhouder"}') || pg_temp.z('lid', '{"tekst": "boekhouder"}')
            || pg_temp.z('lid', '{"tekst": "klanttevredenheid"}'), '{}', 'sections kpis and team withdrawn: no KPIs, no people');
update app.secties set vrijgegeven = true where org_id = :'org';
insert into app.org_rechten (org_id, operatie, rol, recht) values (:'org', 'taken', 'coach', 'geen');
select is(pg_temp.z('coach', '{"tekst": "offerte"}'), '{}', 'a role that may not see tasks finds no tasks, attachments or comments');
select is(pg_temp.z('coach', '{"tekst": "klanten"}'), array['prioriteit:Omzet +10%'], 'but the priorities it may see');
insert into app.modules (org_id, module, aan) values (:'org', 'projecten', false);
select is(pg_temp.z('eigenaar', '{"tekst": "website overname", "soorten": ["project"]}') || pg_temp.z('eigenaar', '{"tekst": "website", "soorten": ["project"]}'),
  '{}', 'module projecten off: no projects');
select is((select count(*)::int from jsonb_array_elements(pg_temp.hits('eigenaar', '{"soorten": ["persoon"]}'))), 5,
  'people: the active members (tests.wereld adds one per role)');

-- The cap ----------------------------------------------------------------------------------------
insert into app.taken (org_id, omschrijving, aangemaakt_door) select :'org', 'Bulkregel ' || i, :'e' from generate_series(1, 26) i;
select is((select jsonb_array_length(r -> 'resultaten') || ' ' || (r ->> 'afgekapt') from tests.roep(:'org', 'lid', 'zoeken', '{"tekst": "bulkregel"}') r),
  '25 true', 'at most 25 hits; afgekapt says there are more');

-- Order: all words in the title first, then the rest; each newest first.
set local koers.nu = '2026-05-14T11:00:00+02:00';
insert into app.taken (org_id, omschrijving, toelichting, aangemaakt_door) values (:'org', 'Bellen met de bank', 'Vraag naar de offerte', :'e');
select is((select array[a[1], a[4], a[5]] from (select array_agg(x ->> 'titel') as a
            from jsonb_array_elements(pg_temp.hits('mt', '{"tekst": "offerte", "soorten": ["taak"]}')) x) y),
  array['Offerte sturen', 'Bellen met de bank', null],
  'hits with every word in the title come first, then the others; each newest first');

-- The searchable text the triggers keep ------------------------------------------------------------
select is((select tag_tekst from app.taken where id = :'t2'), 'Marketing Sales', 'a task''s tag names are kept for its vector');
select app_hidden.tags_zetten(:'org', :'t2', array['Marketing']);
select is(pg_temp.z('lid', '{"tekst": "sales", "soorten": ["taak"]}'), array['taak:Offerte sturen'], 'a removed tag is no longer found');
select is((select array_agg(plek || ':' || tekst order by nr) from app_hidden.tekst_delen(E'een twee drie vier\fvijf', array['p1', 'p2'], 10)),
  array['p1:een twee', 'p1:drie vier', 'p2:vijf'], 'attachment text is split into parts between words, each with its place');

-- What the app does: comments and attachments --------------------------------------------------------
select is(beheer.opmerking_plaatsen(:'org', 1, :'l', '  Klant belde over de offerte  ') ->> 'tekst', 'Klant belde over de offerte',
  'koers opmerking plaatsen stores the comment');
select is((select array[door, operatie, user_id::text] from app_private.aanroepen where org_id = :'org' order by tijdstip desc, id desc limit 1),
  array['app', 'opmerking_plaatsen', :'l'], 'and the call log names the person');
select is((select beheer.bijlage_toevoegen(:'org', 1, :'m', '/tmp/x/plan.txt', 'text/plain', convert_to('Het plan', 'UTF8')) - 'id' - 'geupload_op' - 'door'),
  '{"naam": "plan.txt", "mimetype": "text/plain", "bytes": 8, "tekst_status": "wacht", "taak": {"nummer": 1, "titel": "Offerte sturen"}}',
  'koers bijlage toevoegen stores the file under its own name, waiting to be read');
select ok(exists (select 1 from graphile_worker.jobs j where j.task_identifier = 'extract_attachment_text'
                  and j.key = 'extract_attachment_text:' || :'org' || ':' || (select id from app.bijlagen where naam = 'plan.txt')),
  'in the same transaction a job is queued to read it, one per attachment');
select is((select door_user_id from app.taak_geschiedenis g join app.taken t on t.id = g.taak_id
           where t.org_id = :'org' and t.nummer = 1 and g.soort = 'bijlagen' order by g.id desc limit 1), :'m'::uuid,
  'the task''s history names who added it');
select throws_ok(format($$ select beheer.bijlage_toevoegen('%s', 1, '%s', 'groot.pdf', null, '\x00'::bytea || decode(repeat('00', 10485760), 'hex')) $$, :'org', :'m'),
  'KOERS', 'Het bestand is te groot; een bijlage mag hoogstens 10 MiB zijn.', 'a file over 10 MiB is refused');
select beheer.bijlage_tekst_opslaan(:'org', (select id from app.bijlagen where naam = 'plan.txt'),
  '[{"plek": null, "tekst": "Het plan voor de verbouwing"}]', 'gelezen', null);
select beheer.bijlage_tekst_opslaan(:'org', (select id from app.bijlagen where naam = 'plan.txt'),
  '[{"plek": null, "tekst": "Het plan voor de verbouwing"}]', 'gelezen', null);
select is(pg_temp.z('lid', '{"tekst": "verbouwingen"}'), array['bijlage:plan.txt'], 'the text the worker read is found; storing it twice changes nothing');

select * from finish();
rollback;
