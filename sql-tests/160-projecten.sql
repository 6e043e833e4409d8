-- projecten: only running projects the caller can see; private ones for those who work on
-- them; open task count and hours spent (all of them, also hours the caller cannot see).
begin;
select plan(23);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Project BV') as org \gset
select id as web from app.projecten where org_id = :'org' \gset
select tests.lid(:'org', 'lid') as lid \gset
select tests.lid(:'org', 'eigenaar') as e \gset
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, deadline) values
  (:'org', 'Voorbij', :'e', '2026-01-01', '2026-05-13'),
  (:'org', 'Tot vandaag', :'e', '2026-01-01', '2026-05-14'),
  (:'org', 'Nog niet begonnen', :'e', '2026-05-15', null);
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, afgerond_op) values (:'org', 'Afgerond', :'e', '2026-01-01', now());
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum, besloten) values (:'org', 'Besloten', :'e', '2026-01-01', true)
  returning id as besloten \gset
select tests.taak(:'org', null, 'open', null, null, null, :'web'), tests.taak(:'org', null, 'voltooid', null, null, null, :'web'),
       tests.taak(:'org', null, 'vervallen', null, null, null, :'web');
insert into app.uren (org_id, user_id, datum, uren, project_id) values (:'org', :'e', '2026-05-12', 3, :'web');
insert into app.uren (org_id, user_id, datum, uren, taak_id) select :'org', :'e', '2026-05-12', 1.5, id from app.taken where project_id = :'web' limit 1;

create function pg_temp.titels(_rol text) returns text[] language sql as $$
  select array_agg(x ->> 'titel' order by x ->> 'titel') from jsonb_array_elements(tests.roep(
    (select org_id from app.organisaties where naam = 'Project BV'), _rol, 'projecten') -> 'projecten') x
$$;
create function pg_temp.web(_veld text) returns text language sql as $$
  select x ->> _veld from jsonb_array_elements(tests.roep(
    (select org_id from app.organisaties where naam = 'Project BV'), 'lid', 'projecten') -> 'projecten') x where x ->> 'titel' = 'Website'
$$;

select is(pg_temp.titels('lid'), array['Tot vandaag', 'Website'], 'only running projects: not ended, not yet begun or completed');
select is(pg_temp.titels('eigenaar'), array['Besloten', 'Tot vandaag', 'Website'], 'a private project for the one who works on it');
insert into app.project_leden (org_id, project_id, user_id) values (:'org', :'besloten', :'lid');
select is(pg_temp.titels('lid'), array['Besloten', 'Tot vandaag', 'Website'], 'and for a member added to it');
-- Owning one of its tasks is working on it too (app_hidden.verborgen_projecten); those who do
-- not work on it see neither the project nor its tasks, and cannot add a task to it.
select is(pg_temp.titels('mt'), array['Tot vandaag', 'Website'], 'not for one who does not work on it');
select is(tests.fout(:'org', 'mt', 'taak_toevoegen', jsonb_build_object('omschrijving', 'Erbij', 'project_id', :'besloten')),
  'ongeldige_parameters:project_id', 'who does not work on it cannot add a task to it');
insert into app.taken (org_id, omschrijving, project_id, eigenaar_user_id)
  values (:'org', 'Van de MT', :'besloten', tests.lid(:'org', 'mt')) returning nummer as mt_taak \gset
select is(pg_temp.titels('mt'), array['Besloten', 'Tot vandaag', 'Website'], 'and for one who owns one of its tasks');
select is(jsonb_array_length(tests.roep(:'org', 'mt', 'taken', jsonb_build_object('hoort_bij_id', :'besloten')) -> 'taken'), 1,
  'who owns one of its tasks sees its tasks');
select is(tests.fout(:'org', 'admin', 'taken', jsonb_build_object('nummer', :mt_taak)), 'ongeldige_parameters:nummer',
  'who does not work on it does not see them: the number does not exist for them');
-- The update policy of tasks (the project as the read policy checks it): who does not work on
-- the project cannot change its task, who does can.
select (select id from app.taken where org_id = :'org' and nummer = :mt_taak) as mt_taak_id \gset
select is(tests.fout(:'org', 'admin', 'taak_bijwerken', jsonb_build_object('taak_id', :'mt_taak_id', 'omschrijving', 'Niet van jou')),
  'ongeldige_parameters:taak_id', 'nor change them');
select ok(tests.roep(:'org', 'mt', 'taak_bijwerken', jsonb_build_object('taak_id', :'mt_taak_id', 'omschrijving', 'Wel van mij'))
            -> 'voorstel' ? 'omschrijving', 'while who owns one of its tasks may');
select is(pg_temp.web('open_taken'), '1', 'open tasks: neither done nor lapsed');
select is(pg_temp.web('uren'), '4.5', 'hours on the project and its tasks, also those the member cannot see');
select is(pg_temp.web('eigenaar')::jsonb ->> 'user_id', :'e', 'its owner');
select is(pg_temp.web('looptijd')::jsonb, '{"van": "2026-05-01", "tot": null}', 'its running time');
insert into app.org_rechten (org_id, operatie, rol, recht)
select :'org', o.naam, 'coach', 'geen' from app.operaties o where o.sectie = 'prioriteiten';
select is(pg_temp.titels('coach'), null, 'a refused role sees no projects (policy)');

-- The hidden private projects are asked in every query that reads tasks or projects: the helper
-- reads the private projects of the organisation only (a partial index), not every project.
insert into app.projecten (org_id, titel, eigenaar_user_id, startdatum)
select :'org', format('Open %s', i), :'e', '2026-01-01' from generate_series(1, 30) i;
analyze app.projecten;
create function pg_temp.verborgen(_org uuid, _rol text, out verborgen uuid[], out gelezen bigint) language plpgsql as $$
declare voor bigint;
begin
  perform app_hidden.handelen_namens(_org, tests.lid(_org, _rol), 'rest');
  voor := (select s.idx_tup_fetch + s.seq_tup_read from pg_stat_xact_user_tables s where s.relid = 'app.projecten'::regclass);
  verborgen := app_hidden.verborgen_projecten();
  gelezen := (select s.idx_tup_fetch + s.seq_tup_read from pg_stat_xact_user_tables s where s.relid = 'app.projecten'::regclass) - voor;
end
$$;
select is((pg_temp.verborgen(:'org', 'admin')).verborgen, array[:'besloten'::uuid], 'verborgen_projecten: the private project admin does not work on');
select cmp_ok((pg_temp.verborgen(:'org', 'admin')).gelezen, '<=', 1::bigint,
  'verborgen_projecten reads the private projects only (1 of 36 projects)');

-- A call of an operation that reads tasks or projects works the hidden projects out once, in its
-- caller row (app_hidden.aanroep_begin), and its policies read them there; others leave it empty.
insert into app_private.api_sleutels (org_id, user_id, hash, hint)
values (:'org', tests.lid(:'org', 'mt'), sha256('mt van Project BV'::bytea), 'koers_live_…mt'),
       (:'org', tests.lid(:'org', 'admin'), sha256('admin van Project BV'::bytea), 'koers_live_…ad');
create function pg_temp.deur(_sleutel text, _operatie text, _p jsonb, out antwoord jsonb, out verborgen uuid[])
language plpgsql volatile as $$
begin
  set local role koers_door;
  antwoord := api.aanroep('rest', sha256(convert_to(_sleutel, 'UTF8')), _operatie,
                          _p || jsonb_build_object('org_id', (select org_id from app.organisaties where naam = 'Project BV')));
  reset role;
  verborgen := (select b.verborgen from app_hidden.bellers b where b.pid = pg_backend_pid() and b.sinds = now());
end
$$;
select is((pg_temp.deur('admin van Project BV', 'taken', jsonb_build_object('nummer', :mt_taak))).verborgen,
  array[:'besloten'::uuid], 'a call that reads tasks holds the hidden projects in its caller row');
select is((pg_temp.deur('admin van Project BV', 'taken', jsonb_build_object('nummer', :mt_taak))).antwoord #>> '{body,fout,code}',
  'ongeldige_parameters', 'and its policies hide their tasks, as without it');
select is((pg_temp.deur('admin van Project BV', 'team', '{}')).verborgen, null, 'a call of another operation does not work them out');
-- A call that changes what they depend on works them out anew: mt hands the one task of the
-- private project mt owns to its owner, and so no longer works on it. The proposal, rendered
-- after the change in the call's trial run, then no longer shows mt the task, exactly as
-- without the caller row's hidden projects (tests.roep, which writes).
select (pg_temp.deur('mt van Project BV', 'taak_bijwerken', jsonb_build_object('taak_id', :'mt_taak_id', 'eigenaar_user_id', :'e'))).antwoord
  #> '{body,voorstel}' as deur_voorstel \gset
select is(:'deur_voorstel'::jsonb,
  tests.roep(:'org', 'mt', 'taak_bijwerken', jsonb_build_object('taak_id', :'mt_taak_id', 'eigenaar_user_id', :'e')) -> 'voorstel',
  'a call that hands its task in a private project away sees what the change hides');
-- Only the start of a call and the caller's own readers work them out for a member.
select ok(not has_function_privilege('koers_door', 'app_hidden.verborgen_projecten_van(uuid, uuid)', 'execute')
          and not has_function_privilege('koers_warehouse', 'app_hidden.verborgen_projecten_van(uuid, uuid)', 'execute')
          and not has_function_privilege('koers_lezer', 'app_hidden.verborgen_projecten_van(uuid, uuid)', 'execute'),
  'no door or warehouse login asks the hidden projects of someone else');

select is(array(select x from unnest(app_hidden.projectlezers()) x except select o.naam from app.operaties o), '{}'::text[],
  'every operation that works the hidden projects out at its start is a registered operation');

select * from finish();
rollback;
