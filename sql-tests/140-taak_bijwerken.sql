-- taak_bijwerken: every field, stand mapping, events, repetition, tags, weeks; allowed and
-- refused roles; deleting is impossible.
begin;
select plan(37);

set local koers.nu = '2026-05-14T10:00:00+02:00';  -- 2026-W20
select tests.wereld('Taak BV') as org \gset
select id as prio from app.prioriteiten where org_id = :'org' \gset
select tests.lid(:'org', 'mt') as mt \gset
select id as taak from app.taken where org_id = :'org' and nummer = 1 \gset
create function pg_temp.werk(_p jsonb, _rol text default 'lid') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Taak BV'), _rol, 'taak_bijwerken',
    jsonb_build_object('taak_id', (select id from app.taken t join app.organisaties o using (org_id) where o.naam = 'Taak BV' and nummer = 1)) || _p)
$$;
create function pg_temp.events(_soort text) returns int language sql as $$
  select count(*)::int from app.gebeurtenissen g join app.taken t on t.org_id = g.org_id and t.id = g.onderwerp_id
  join app.organisaties o on o.org_id = t.org_id where o.naam = 'Taak BV' and t.nummer = 1 and g.soort = _soort
$$;

select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak')), 'ongeldige_parameters:taak_id',
  'at least one field must change');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', gen_random_uuid(), 'stand', 'open')),
  'ongeldige_parameters:taak_id', 'an unknown task is refused');

-- Stand: write side in, read side out
select is(pg_temp.werk('{"stand": "in_uitvoering"}') #>> '{resultaat,taak,stand}', 'bezig', 'in_uitvoering reads as bezig');
select is(pg_temp.werk('{"stand": "wacht_op_feedback"}') #>> '{resultaat,taak,stand}', 'wacht op feedback', 'wacht_op_feedback reads as wacht op feedback');
select is(pg_temp.events('taak.gewijzigd'), 2, 'each stand change emits taak.gewijzigd');
create temp table klaar as select pg_temp.werk('{"stand": "voltooid"}') as r;
select is((select r #>> '{resultaat,taak,stand}' from klaar), 'klaar', 'voltooid reads as klaar');
select is((select r #> '{voorstel,stand}' from klaar), '{"nu": "wacht op feedback", "wordt": "klaar"}', 'the proposal shows the stand now and after');
select is(pg_temp.events('taak.klaar'), 1, 'done emits taak.klaar');
select is((select gegevens -> 'taak' ->> 'klaar' || '/' || (gegevens -> 'taak' ->> 'status') from app.gebeurtenissen where soort = 'taak.klaar' and onderwerp_id = :'taak'),
  'true/klaar', 'with klaar true and the read-side status');
select is((select afgerond_op from app.taken where id = :'taak'), app_hidden.nu(), 'the task records when it was done');
select is(pg_temp.werk('{"stand": "open"}') #>> '{resultaat,taak,stand}', 'open', 'a done task can be reopened');
select is(pg_temp.events('taak.gewijzigd'), 3, 'reopening emits taak.gewijzigd');
select is(pg_temp.werk('{"stand": "vervallen"}') #>> '{resultaat,taak,stand}', 'vervallen', 'vervallen');
select is((select x ->> 'stand' from jsonb_array_elements(tests.roep(:'org', 'lid', 'prioriteiten', '{}') -> 'prioriteiten') x
           where x ->> 'titel' = 'Omzet +10%'), 'geen taken', 'a vervallen task no longer counts in progress');

-- Fields, null removes
select is(pg_temp.werk(jsonb_build_object('eigenaar_user_id', :'mt')) #>> '{resultaat,taak,eigenaar,user_id}', :'mt', 'a new owner');
select is(pg_temp.werk('{"eigenaar_user_id": null}') #> '{resultaat,taak,eigenaar}', 'null', 'null removes the owner');
select is(pg_temp.werk('{"deadline": "2026-06-01"}') #>> '{resultaat,taak,deadline}', '2026-06-01', 'a deadline');
select is(pg_temp.werk('{"deadline": null}') #> '{resultaat,taak,deadline}', 'null', 'null removes it');
select is(pg_temp.werk('{"week": "volgende"}') #>> '{resultaat,taak,week}', '2026-W21', 'a week');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'week', '2026-W19')), 'ongeldige_parameters:week',
  'a week that has passed is refused');
select is(pg_temp.werk('{"week": null}') #> '{resultaat,taak,week}', 'null', 'null removes it from every week');
select is(pg_temp.werk('{"inschatting_uren": 5}') #>> '{resultaat,taak,inschatting_uren}', '5', 'an estimate');
select is(pg_temp.werk('{"grootte": "groot"}') #>> '{resultaat,taak,inschatting_uren}', '24', 'a size replaces the estimate');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'grootte', 'klein', 'inschatting_uren', 1)),
  'ongeldige_parameters:inschatting_uren', 'size and estimate together are refused');

-- Tags replace; an empty list removes all
select is(pg_temp.werk('{"tags": ["Nieuw", "sales"]}') #> '{resultaat,taak,tags}', '["Nieuw", "Sales"]', 'tags replace the old ones, an existing tag keeps its spelling');
select is((select jsonb_build_array(oud, nieuw) from app.taak_geschiedenis where taak_id = :'taak' and soort = 'tags'), '[["Sales"], ["Nieuw", "Sales"]]',
  'one history entry with the tags before and after');
select is(pg_temp.werk('{"tags": []}') #> '{resultaat,taak,tags}', '[]', 'an empty list removes all tags');

-- Repetition
select pg_temp.werk('{"stand": "open", "herhalen": "maand", "deadline": "2026-05-31", "tags": ["Sales"]}');
select pg_temp.werk('{"stand": "voltooid"}');
select is((select deadline::text || ' ' || stand || ' ' || app_hidden.taak_tags(org_id, id)::text from app.taken where herhaling_van = :'taak'),
  '2026-06-30 open ["Sales"]', 'a repeating task that is done gets its next occurrence, a month on, with its tags');
select is((select door_user_id from app.taak_geschiedenis g join app.taken t on t.id = g.taak_id where t.herhaling_van = :'taak' and g.soort = 'aangemaakt'),
  null, 'created automatically: the history names nobody');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', (select id from app.taken where herhaling_van = :'taak'), 'stand', 'voltooid')),
  '', 'the next occurrence can be done too');
update app.prioriteiten set afgerond_op = app_hidden.nu() where id = :'prio';
select is((select count(*)::int from app.taken where herhaling_van = (select id from app.taken where herhaling_van = :'taak')), 1,
  'while the priority ran, that made another');
select tests.roep(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', (select id from app.taken where herhaling_van = (select id from app.taken where herhaling_van = :'taak')), 'stand', 'voltooid'));
select is((select count(*)::int from app.taken where org_id = :'org' and prioriteit_id = :'prio' and stand = 'open'), 0,
  'under a completed priority the repetition stops');

-- Roles; deleting is impossible
select is(tests.fout(:'org', 'coach', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'stand', 'open')), 'rol_mag_niet',
  'a coach may not update tasks');
select app_hidden.handelen_namens(:'org', :'mt');
set local role koers_door;
select throws_ok(format('delete from app.taken where id = %L', :'taak'), '42501', null, 'deleting a task is impossible');
reset role;

select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'week', 'morgen')), 'ongeldige_parameters:week',
  'free text as a week is refused by name');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'week', '0000-W01')), 'ongeldige_parameters:week',
  'so is week 0000-W01');
select is(tests.fout(:'org', 'lid', 'taak_bijwerken', jsonb_build_object('taak_id', :'taak', 'deadline', '0000-01-01')), 'ongeldige_parameters:deadline',
  'and the date 0000-01-01');

select * from finish();
rollback;
