-- weektaken: the board per person per ISO week; a member sees their own board, leaders every board.
begin;
select plan(7);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Week BV') as org \gset
select tests.lid(:'org', 'mt') as mt \gset
insert into app.weektaken (org_id, user_id, week, titel, kolom, klaar) values (:'org', :'mt', '2026-W20', 'Mt-werk', 'klaar', true);

create function pg_temp.bord(_rol text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Week BV'), _rol, 'weektaken', _p)
$$;
select is(pg_temp.bord('lid') ->> 'week', '2026-W20', 'empty week is this week');
select is((select array_agg(b #>> '{persoon,naam}') from jsonb_array_elements(pg_temp.bord('lid') -> 'borden') b), array['Lid Week BV'],
  'a member sees only their own board');
select is((select array_agg(b #>> '{persoon,naam}' order by b #>> '{persoon,naam}') from jsonb_array_elements(pg_temp.bord('eigenaar') -> 'borden') b),
  array['Eigenaar Week BV', 'Lid Week BV', 'Mt Week BV'], 'an owner sees every board with tasks that week, and their own');
select is((select b -> 'taken' -> 0 from jsonb_array_elements(pg_temp.bord('mt') -> 'borden') b where b #>> '{persoon,naam}' = 'Mt Week BV'),
  (select jsonb_build_object('id', id, 'titel', 'Mt-werk', 'status', 'klaar', 'klaar', true, 'rock_id', null, 'week', '2026-W20')
   from app.weektaken where titel = 'Mt-werk'), 'a task shows titel, status, klaar and rock_id');
select is((select b -> 'taken' from jsonb_array_elements(pg_temp.bord('lid', '{"week": "2026-W21"}') -> 'borden') b), '[]',
  'another week has its own board');
select is(tests.fout(:'org', 'coach', 'weektaken', '{}'), '', 'a coach is stopped by the door (rol_mag_niet); in SQL the policy shows nothing');

-- The week label of a day is inlined where it is used (declared immutable over the stable
-- to_char it was not, and ran as a SQL function of its own, planned anew at every call).
select ok(p ~ 'to_char' and p !~ 'iso_week', 'a week label is worked out in the query that asks for it')
from tests.plan('select app_hidden.iso_week(w.day) from (select current_date + i as day from generate_series(1, 2) i offset 0) w') p;

select * from finish();
rollback;
