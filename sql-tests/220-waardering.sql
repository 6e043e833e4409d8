-- waardering: valuations as stored when measured, newest first, 8 by default; measurements
-- without figures are left out; finance only.
begin;
select plan(13);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Waarde BV') as org \gset
-- The world measured 2025 (omzet only). Stored figures are history: aandelenwaarde is kept as
-- measured, never recomputed from omzet and multiple.
update app.waarderingen set gemeten_op = '2026-01-05' where org_id = :'org';
insert into app.waarderingen (org_id, periode, omzet, genormaliseerde_ebitda, multiple, aandelenwaarde, gemeten_op) values
  (:'org', 'Q1-2026', 300000, 60000, 5.5, 310000, '2026-04-05'),
  (:'org', '2025-12', 90000, 15000, 5, 70000, '2026-01-10'),
  (:'org', 'Q4-2025', null, null, 4.8, null, '2026-01-08'),
  (:'org', '2026-04', null, null, null, null, '2026-05-01');

create function pg_temp.w(_rol text, _p jsonb default '{}') returns jsonb language sql as $$
  select tests.roep((select org_id from app.organisaties where naam = 'Waarde BV'), _rol, 'waardering', _p)
$$;
create function pg_temp.perioden(_antwoord jsonb) returns text[] language sql as $$
  select coalesce(array_agg(x ->> 'periode' order by n), '{}') from jsonb_array_elements(_antwoord -> 'waarderingen') with ordinality x (x, n)
$$;

select is(pg_temp.perioden(pg_temp.w('eigenaar')), array['Q1-2026', '2025-12', 'Q4-2025', '2025'],
  'newest period first, then the latest measurement; the open invitation is left out');
select is(pg_temp.w('eigenaar') -> 'waarderingen' -> 0,
  '{"periode": "Q1-2026", "omzet": 300000, "genormaliseerde_ebitda": 60000, "multiple": 5.5, "aandelenwaarde": 310000}'::jsonb
  || jsonb_build_object('gemeten_op', '2026-04-05'::timestamptz),
  'periode, omzet, genormaliseerde EBITDA, multiple and aandelenwaarde, as stored when measured');
select is(pg_temp.w('eigenaar') -> 'waarderingen' -> 2 ->> 'multiple', '4.8', 'one figure is enough to count');
select is(pg_temp.perioden(pg_temp.w('mt', '{"aantal": 2}')), array['Q1-2026', '2025-12'], 'aantal: the newest so many');
select is(pg_temp.perioden(pg_temp.w('admin', '{"aantal": 1}')), array['Q1-2026'], 'aantal 1');
insert into app.waarderingen (org_id, periode, omzet, gemeten_op)
  select :'org', to_char(d, 'YYYY-MM'), 1000, d from generate_series(date '2024-01-01', date '2024-06-01', interval '1 month') d;
select is(jsonb_array_length(pg_temp.w('eigenaar') -> 'waarderingen'), 8, 'eight by default');
select is(jsonb_array_length(pg_temp.w('eigenaar', '{"aantal": 100}') -> 'waarderingen'), 10, 'all ten with figures when asked');
select is(tests.fout(:'org', 'eigenaar', 'waardering', '{"aantal": 0}') || ' ' || tests.fout(:'org', 'eigenaar', 'waardering', '{"aantal": 101}'),
  'ongeldige_parameters:aantal ongeldige_parameters:aantal', 'aantal from 1 to 100');

-- Finance only: a member and a coach see nothing (the door answers rol_mag_niet).
select is(pg_temp.w('lid') -> 'waarderingen', '[]', 'a member sees no valuation');
select is(tests.rijen(:'org', 'coach', 'app.waarderingen'), 0::bigint, 'nor does a coach reading the table');
select is(tests.rijen(:'org', 'eigenaar', 'app.waarderingen'), 10::bigint, 'an owner reads only measurements with figures');
select beheer.secties_zetten(:'org', array['financien'], false);
select is(tests.rijen(:'org', 'eigenaar', 'app.waarderingen'), 0::bigint, 'without the finance section nothing');

select throws_ok(format('insert into app.waarderingen (org_id, periode) values (%L, %L)', :'org', '2026-Q2'), '23514', null,
  'a period is <yyyy>, <yyyy>-<mm> or Q<n>-<yyyy>');

select * from finish();
rollback;
