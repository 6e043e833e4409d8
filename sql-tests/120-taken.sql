-- taken: filters, the default of open tasks only, nummer whatever its stand, tags needing all
-- (ignoring case), the cap of 200 with afgekapt, private projects, a refused role.
begin;
select plan(26);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Lijst BV') as org \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select id as project from app.projecten where org_id = :'org' \gset
select tests.lid(:'org', 'lid') as lid \gset
-- The numbers of the tasks a list answers, in its order; and sorted, for which tasks it holds.
create function pg_temp.in_order(_p jsonb, _rol text default 'mt') returns int[] language sql as $$
  select array_agg((x ->> 'nummer')::int order by i)
  from jsonb_array_elements(tests.roep((select org_id from app.organisaties where naam = 'Lijst BV'), _rol, 'taken', _p) -> 'taken')
       with ordinality y (x, i)
$$;
create function pg_temp.nummers(_p jsonb, _rol text default 'mt') returns int[] language sql as $$
  select array_agg(n order by n) from unnest(pg_temp.in_order(_p, _rol)) n
$$;

-- #1 is the fixture task (open, under the priority, owner lid, tag Sales).
insert into app.taken (org_id, omschrijving, project_id, stand, week) values (:'org', 'In project', :'project', 'open', '2026-W20');  -- #2
insert into app.taken (org_id, omschrijving, stand, deadline) values (:'org', 'Los, klaar', 'voltooid', '2026-05-01');               -- #3
insert into app.taken (org_id, omschrijving, stand) values (:'org', 'Los, vervallen', 'vervallen');                                -- #4
insert into app.taken (org_id, omschrijving, stand, eigenaar_user_id) values (:'org', 'Los, open', 'wacht_op_feedback', :'lid');   -- #5
insert into app.taak_tags (org_id, taak_id, tag_id)
  select :'org', t.id, g.id from app.taken t, app.tags g where t.org_id = :'org' and t.nummer = 5 and g.org_id = :'org';
insert into app.tags (org_id, naam) values (:'org', 'Urgent');
insert into app.taak_tags (org_id, taak_id, tag_id)
  select :'org', t.id, g.id from app.taken t, app.tags g where t.org_id = :'org' and t.nummer = 5 and g.naam = 'Urgent';

select is(pg_temp.nummers('{}'), array[1, 2, 5], 'by default only open tasks');
select is(pg_temp.nummers('{"ook_afgesloten": true}'), array[1, 2, 3, 4, 5], 'ook_afgesloten adds done and lapsed tasks');
select is(pg_temp.nummers('{"soort": "prioriteit"}'), array[1], 'soort prioriteit');
select is(pg_temp.nummers('{"soort": "project"}'), array[2], 'soort project');
select is(pg_temp.nummers('{"soort": "los"}'), array[5], 'soort los');
select is(pg_temp.nummers(jsonb_build_object('hoort_bij_id', :'project')), array[2], 'hoort_bij_id');
select is(pg_temp.nummers(jsonb_build_object('eigenaar_user_id', :'lid')), array[1, 5], 'eigenaar_user_id');
select is(pg_temp.nummers('{"week": "deze"}'), array[2], 'week deze');
select is(pg_temp.nummers('{"tags": ["SALES"]}'), array[1, 5], 'a tag filter ignores letter case');
select is(pg_temp.nummers('{"tags": ["sales", "urgent"]}'), array[5], 'and requires all tags');
select is(pg_temp.nummers('{"nummer": 3, "soort": "project"}'), array[3], 'nummer returns that task whatever its stand; other filters do not count');
select is(tests.fout(:'org', 'mt', 'taken', '{"nummer": 99}'), 'ongeldige_parameters:nummer', 'an unknown number is refused');

-- One owner's tasks (a statement of their own, db/160_taken.sql): the same filters, order and cap.
insert into app.taken (org_id, omschrijving, stand, eigenaar_user_id, deadline)
values (:'org', 'Van lid, klaar', 'voltooid', :'lid', '2026-05-02');                                                           -- #6
update app.taken set deadline = '2026-05-20' where org_id = :'org' and nummer = 5;
select is(pg_temp.in_order(jsonb_build_object('eigenaar_user_id', :'lid')), array[5, 1],
  'one owner''s open tasks, by deadline (none last), then number');
select is(pg_temp.in_order(jsonb_build_object('eigenaar_user_id', :'lid', 'ook_afgesloten', true)), array[6, 5, 1],
  'with ook_afgesloten also their done tasks');
select is(pg_temp.in_order(jsonb_build_object('eigenaar_user_id', :'lid', 'soort', 'los')), array[5],
  'and with another filter as well');
select is(pg_temp.in_order(jsonb_build_object('eigenaar_user_id', gen_random_uuid())), null,
  'someone who owns no task gets none');

-- Private project: only for those who work on it.
update app.projecten set besloten = true where id = :'project';
select is(pg_temp.nummers('{}', 'admin'), array[1, 5], 'tasks of a private project are hidden from those who do not work on it');
select is(pg_temp.nummers('{}', 'lid'), array[1, 2, 5], 'and shown to those who do');
update app.taken set eigenaar_user_id = :'lid' where org_id = :'org' and nummer = 2;
select is(pg_temp.nummers(jsonb_build_object('eigenaar_user_id', :'lid'), 'admin'), array[1, 5],
  'one owner''s list hides them too');
select is(pg_temp.nummers(jsonb_build_object('eigenaar_user_id', :'lid'), 'lid'), array[1, 2, 5],
  'and shows them to those who work on the project');

-- The cap
insert into app.taken (org_id, omschrijving) select :'org', 'Veel ' || i from generate_series(1, 200) i;
select is((select jsonb_array_length(r -> 'taken') || ' ' || (r ->> 'afgekapt') from (select tests.roep(:'org', 'lid', 'taken', '{}') r) x),
  '200 true', 'at most 200 tasks, and afgekapt says the list was cut');
update app.taken set eigenaar_user_id = :'lid' where org_id = :'org' and omschrijving like 'Veel %';
select is((select jsonb_array_length(r -> 'taken') || ' ' || (r ->> 'afgekapt') || ' ' || (r #>> '{taken,0,nummer}')
           from (select tests.roep(:'org', 'lid', 'taken', jsonb_build_object('eigenaar_user_id', :'lid')) r) x),
  '200 true 5', 'one owner''s list too: at most 200, cut, in the same order');

insert into app.org_rechten (org_id, operatie, rol, recht)
select :'org', o.naam, 'coach', 'geen' from app.operaties o where o.sectie = 'prioriteiten';
select is(jsonb_array_length(tests.roep(:'org', 'coach', 'taken', '{}') -> 'taken'), 0, 'a refused role sees no tasks (policy)');

-- Year 0 does not exist: the refusal names the parameter (the cast never runs first).
select is(tests.fout(:'org', 'lid', 'taken', '{"week": "0000-W01"}'), 'ongeldige_parameters:week', 'week 0000-W01 is refused by name');
select is(tests.fout(:'org', 'lid', 'taken', '{"week": "volgende week"}'), 'ongeldige_parameters:week', 'free text as a week is refused by name');
select is(tests.fout(:'org', 'lid', 'taken', '{"nummer": 1, "week": "volgende week"}'), 'ongeldige_parameters:week',
  'also with a number');

select * from finish();
rollback;
