-- kpi_scorebord: quarter target, current value, line and traffic light at their boundaries.
-- Q3-2026 has 92 days; at 24 July 00:00 Amsterdam 23 have passed: a quarter of it, exactly.
begin;
select plan(25);

select tests.wereld('Kpi BV') as org \gset
create function pg_temp.kpi(_naam text, _soort text, _cadans text, _lager boolean, _doel numeric) returns uuid
language plpgsql as $$
declare o uuid := (select org_id from app.organisaties where naam = 'Kpi BV'); k uuid;
begin
  insert into app.kpis (org_id, naam, eigenaar_user_id, meetsoort, cadans, lager_is_beter)
  values (o, _naam, tests.lid(o, 'lid'), _soort, _cadans, _lager) returning id into k;
  if _doel is not null then
    insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (o, k, '2026-07-01', _doel);
  end if;
  return k;
end
$$;
create function pg_temp.meet(_kpi uuid, _periode text, _waarde numeric) returns void language sql as $$
  insert into app.kpi_metingen (org_id, kpi_id, periode, periode_start, periode_eind, waarde)
  select k.org_id, k.id, p.periode, p.van, p.laatste_dag, _waarde
  from app.kpis k, app_hidden.param_kpi_periode(k.cadans, _periode, k.org_id) p where k.id = _kpi
$$;
create function pg_temp.kpi_veld(_naam text, _veld text, _p jsonb default '{"kwartaal": "Q3-2026"}') returns text language sql as $$
  select x ->> _veld from jsonb_array_elements(tests.roep(
    (select org_id from app.organisaties where naam = 'Kpi BV'), 'lid', 'kpi_scorebord', _p) -> 'kpis') x
  where x ->> 'naam' = _naam
$$;

set local koers.nu = '2026-07-23T22:00:00Z';
select pg_temp.kpi('gelijk', 'teller', 'week', false, 400) as gelijk \gset
select pg_temp.meet(:'gelijk', '2026-W27', 60), pg_temp.meet(:'gelijk', '2026-W28', 40);
select pg_temp.kpi('tachtig', 'teller', 'week', false, 400) as tachtig \gset
select pg_temp.meet(:'tachtig', '2026-W28', 80);
select pg_temp.kpi('eronder', 'teller', 'week', false, 400) as eronder \gset
select pg_temp.meet(:'eronder', '2026-W28', 79);
select pg_temp.kpi('bereikt', 'teller', 'month', false, 400) as bereikt \gset
select pg_temp.meet(:'bereikt', '2026-07', 400);
select pg_temp.kpi('kosten', 'teller', 'week', true, 400) as kosten \gset
select pg_temp.meet(:'kosten', '2026-W28', 125);
select pg_temp.kpi('kosten hoog', 'teller', 'week', true, 400) as kostenhoog \gset
select pg_temp.meet(:'kostenhoog', '2026-W28', 126);
select pg_temp.kpi('marge', 'stand', 'month', false, 50) as marge \gset
select pg_temp.meet(:'marge', '2026-07', 40);
select pg_temp.kpi('marge laag', 'stand', 'week', false, 50) as margelaag \gset
select pg_temp.meet(:'margelaag', '2026-W27', 60), pg_temp.meet(:'margelaag', '2026-W29', 39.9);
select pg_temp.kpi('kwartaalcijfer', 'teller', 'quarter', false, 1000);
select pg_temp.kpi('zonder doel', 'teller', 'week', false, null) as zonder \gset
select pg_temp.meet(:'zonder', '2026-W28', 5);

select is(pg_temp.kpi_veld('gelijk', 'lijn'), '100.00', 'the line of a teller is the quarter target pro rata');
select is(pg_temp.kpi_veld('gelijk', 'huidige_stand'), '100', 'its value is the sum of the quarter''s measurements (W27 counts in Q3 by its Thursday)');
select is(pg_temp.kpi_veld('gelijk', 'stoplicht'), 'op koers', 'at the line: op koers');
select is(pg_temp.kpi_veld('tachtig', 'stoplicht'), 'attentie', 'exactly 80% of the line: attentie');
select is(pg_temp.kpi_veld('eronder', 'stoplicht'), 'achter', 'below 80%: achter');
select is(pg_temp.kpi_veld('bereikt', 'bereikt'), 'true', 'a teller reaches its target when the sum meets it');
select is(pg_temp.kpi_veld('eronder', 'bereikt'), 'false', 'and not before');
select is(pg_temp.kpi_veld('kosten', 'stoplicht'), 'attentie', 'lager_is_beter mirrored: 125 against a line of 100 is attentie');
select is(pg_temp.kpi_veld('kosten hoog', 'stoplicht'), 'achter', 'and 126 is achter');
select is(pg_temp.kpi_veld('marge', 'lijn'), '50.00', 'a stand KPI is laid against the bar itself');
select is(pg_temp.kpi_veld('marge', 'stoplicht'), 'attentie', '40 against 50 is exactly 80%: attentie');
select is(pg_temp.kpi_veld('marge laag', 'huidige_stand'), '39.9', 'a stand KPI shows the latest measurement');
select is(pg_temp.kpi_veld('marge laag', 'stoplicht'), 'achter', 'and judges it');
select is(pg_temp.kpi_veld('marge', 'bereikt'), 'false', 'a stand KPI is never reached');
select is(pg_temp.kpi_veld('kwartaalcijfer', 'huidige_stand'), null, 'a quarter KPI has no measurement mid-quarter');
select is(pg_temp.kpi_veld('kwartaalcijfer', 'stoplicht'), null, 'and no traffic light');
select is(pg_temp.kpi_veld('zonder doel', 'stoplicht'), null, 'without a quarter target there is no traffic light');

set local koers.nu = '2026-06-30T21:59:59Z';
select is(pg_temp.kpi_veld('gelijk', 'huidige_stand', '{}'), null, 'empty kwartaal is the running quarter (Q2 has no measurements)');
set local koers.nu = '2026-10-05T10:00:00Z';
select is(pg_temp.kpi_veld('eronder', 'lijn', '{"kwartaal": "Q3-2026"}'), '400.00', 'after the quarter the line is the whole target');
select is(jsonb_array_length(tests.roep(:'org', 'lid', 'kpi_scorebord', '{"team": "geen"}') -> 'kpis'), 11, 'team geen: company-wide KPIs');
select is(tests.fout(:'org', 'lid', 'kpi_scorebord', '{"kwartaal": "Q5-2026"}'), 'ongeldige_parameters:kwartaal', 'a quarter that does not exist is refused');
select is(tests.fout(:'org', 'lid', 'kpi_scorebord', '{"team": "Inkoop"}'), 'ongeldige_parameters:team', 'an unknown team is refused');

insert into app.org_rechten (org_id, operatie, rol, recht)
select :'org', o.naam, 'coach', 'geen' from app.operaties o where o.sectie = 'kpis';
select is(jsonb_array_length(tests.roep(:'org', 'coach', 'kpi_scorebord', '{}') -> 'kpis'), 0, 'a refused role sees no KPIs (policy)');

-- The pro rata line counts calendar days too: at 16 November 00:00 Amsterdam half of Q4 has
-- passed, although the summer-time change made October an hour longer.
insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (:'org', :'gelijk', '2026-10-01', 400);
set local koers.nu = '2026-11-15T23:00:00Z';
select pg_temp.meet(:'gelijk', '2026-W42', 200);
select is(pg_temp.kpi_veld('gelijk', 'lijn', '{"kwartaal": "Q4-2026"}'), '200.00', 'half the quarter target at half the calendar days');
select is(pg_temp.kpi_veld('gelijk', 'stoplicht', '{"kwartaal": "Q4-2026"}'), 'op koers', 'so 200 of 400 is op koers');

select * from finish();
rollback;
