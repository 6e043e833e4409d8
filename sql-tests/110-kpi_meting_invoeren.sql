-- kpi_meting_invoeren: periods per cadence (week 53 included), defaults, the running quarter,
-- overwriting, the required explanation and kpi.rood; own KPIs for members.
begin;
select plan(28);

set local koers.nu = '2026-07-23T22:00:00Z';  -- Friday 24 July 2026 in Amsterdam: W30, a quarter of Q3 passed
select tests.wereld('Kpi BV') as org \gset
select tests.lid(:'org', 'lid') as lid \gset
create function pg_temp.kpi(_naam text, _soort text, _cadans text, _eigenaar text default 'lid') returns uuid
language plpgsql as $$
declare o uuid := (select org_id from app.organisaties where naam = 'Kpi BV'); k uuid;
begin
  insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans) values (o, _naam, tests.lid(o, _eigenaar), _soort, _cadans) returning id into k;
  insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel)
  values (o, k, '2026-07-01', case when _soort = 'teller' then 400 else 50 end),
         (o, k, '2026-04-01', case when _soort = 'teller' then 400 else 50 end);
  return k;
end
$$;
select pg_temp.kpi('week', 'teller', 'week') as wk \gset
select pg_temp.kpi('maand', 'teller', 'month') as mnd \gset
select pg_temp.kpi('kwartaal', 'teller', 'quarter') as kw \gset
select pg_temp.kpi('marge', 'stand', 'week') as marge \gset
select pg_temp.kpi('van de eigenaar', 'teller', 'week', 'eigenaar') as ander \gset
create function pg_temp.m(_kpi uuid, _extra jsonb) returns jsonb language sql as $$ select jsonb_build_object('kpi_id', _kpi) || _extra $$;

-- Periods
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "periode": "2026-07"}')),
  'ongeldige_parameters:periode', 'a week KPI takes a week, not a month');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 5, "periode": "2026-W28"}')),
  'ongeldige_parameters:periode', 'a month KPI takes a month');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "periode": "2026-W31"}')),
  'ongeldige_parameters:periode', 'a week that has not begun is refused');
select is(tests.roep(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "toelichting": "Rustig"}')) #>> '{resultaat,meting,periode}',
  '2026-W30', 'empty periode is the running week');
select is(tests.roep(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 100}')) #>> '{resultaat,meting,periode}',
  '2026-07', 'empty periode is the running month');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'kw', '{"waarde": 500, "periode": "2026-Q3"}')),
  'ongeldige_parameters:periode', 'a quarter still running is refused');
select is(tests.roep(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'kw', '{"waarde": 500, "toelichting": "Zomer"}')) #>> '{resultaat,meting,periode}',
  '2026-Q2', 'empty periode of a quarter KPI is the previous quarter');
set local koers.nu = '2026-12-30T12:00:00Z';
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "periode": "2026-W53", "toelichting": "x"}')),
  '', 'week 53 exists in 2026');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "periode": "2025-W53"}')),
  'ongeldige_parameters:periode', 'and not in 2025');
select is((select periode_start::text || '/' || periode_eind from app.kpi_metingen where kpi_id = :'wk' and periode = '2026-W53'),
  '2026-12-28/2027-01-03', 'week 53 runs from 28 December to 3 January');
set local koers.nu = '2026-07-23T22:00:00Z';

-- Traffic light of the measurement, explanation, kpi.rood (month KPI: line 100 at a quarter of Q3)
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 80}')),
  'ongeldige_parameters:toelichting', 'landing on attentie requires an explanation');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 79}')),
  'ongeldige_parameters:toelichting', 'landing on achter requires an explanation');
select is((select count(*)::int from app.gebeurtenissen where org_id = :'org' and soort = 'kpi.rood' and onderwerp_id = :'mnd'), 0,
  'a refused measurement records nothing');
create temp table r as select tests.roep(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 80, "toelichting": "Vakantie"}')) as r;
select is((select r #> '{voorstel,stoplicht}' from r), '{"nu": "op koers", "wordt": "attentie"}', 'the proposal shows the light now and after');
select is((select r #> '{voorstel,waarde}' from r), '{"nu": 100, "wordt": 80}', 'and the current value it overwrites');
select is((select waarde from app.kpi_metingen where kpi_id = :'mnd'), 80::numeric, 'a measurement overwrites the earlier one of its period');
select is((select r #>> '{resultaat,meting,overschreven}' from r), 'true', 'and says so');
select is((select count(*)::int from app.gebeurtenissen where org_id = :'org' and soort = 'kpi.rood' and onderwerp_id = :'mnd'), 0, 'attentie is not red');
select tests.roep(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 79, "toelichting": "Vakantie"}'));
select is((select gegevens #>> '{kpi,naam}' from app.gebeurtenissen where org_id = :'org' and soort = 'kpi.rood' and onderwerp_id = :'mnd'), 'maand',
  'a red measurement records kpi.rood in the same transaction');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'marge', '{"waarde": 50}')), '', 'a stand at the bar needs no explanation');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'marge', '{"waarde": 39.9}')), 'ongeldige_parameters:toelichting',
  'a stand below 80% of the bar needs one');

-- Who may measure
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'ander', '{"waarde": 200}')), 'rol_mag_niet',
  'a member measures only their own KPIs');
select is(tests.fout(:'org', 'mt', 'kpi_meting_invoeren', pg_temp.m(:'ander', '{"waarde": 200}')), '', 'MT measures any KPI');
select is(tests.fout(:'org', 'coach', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 200}')), 'rol_mag_niet', 'a coach may not');
select app_hidden.handelen_namens(:'org', tests.lid(:'org', 'coach'));
set local role koers_door;
select throws_ok(format($$ insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde, ingevoerd_door)
  values (%L, %L, '2026-W29', '2026-07-13', '2026-07-19', 1, %L) $$, :'org', :'wk', tests.lid(:'org', 'coach')),
  '42501', null, 'not even writing the row directly (policy)');
reset role;
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', jsonb_build_object('kpi_id', gen_random_uuid(), 'waarde', 1)),
  'ongeldige_parameters:kpi_id', 'an unknown KPI is refused');

select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'mnd', '{"waarde": 5, "periode": "0000-01"}')),
  'ongeldige_parameters:periode', 'month 0000-01 is refused by name');
select is(tests.fout(:'org', 'lid', 'kpi_meting_invoeren', pg_temp.m(:'wk', '{"waarde": 5, "periode": "0000-W01"}')),
  'ongeldige_parameters:periode', 'as is week 0000-W01');

select * from finish();
rollback;
