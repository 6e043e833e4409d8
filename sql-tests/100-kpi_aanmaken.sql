-- kpi_aanmaken: definition fields, choices, default lager_is_beter; allowed and refused roles.
begin;
select plan(10);

set local koers.nu = '2026-07-23T22:00:00Z';
select tests.wereld('Kpi BV') as org \gset
create function pg_temp.p(_extra jsonb default '{}') returns jsonb language sql as $$
  select jsonb_build_object('naam', 'Nieuwe leads', 'eenheid', 'leads', 'meetsoort', 'teller', 'cadans', 'week',
    'eigenaar_user_id', tests.lid((select org_id from app.organisaties where naam = 'Kpi BV'), 'lid')) || _extra
$$;

select is(tests.fout(:'org', 'mt', 'kpi_aanmaken', pg_temp.p() - 'naam'), 'ongeldige_parameters:naam', 'naam is required');
select is(tests.fout(:'org', 'mt', 'kpi_aanmaken', pg_temp.p() - 'eigenaar_user_id'), 'ongeldige_parameters:eigenaar_user_id', 'one owner is required');
select is(tests.fout(:'org', 'mt', 'kpi_aanmaken', pg_temp.p('{"meetsoort": "som"}')), 'ongeldige_parameters:meetsoort', 'meetsoort is teller or stand');
select is(tests.fout(:'org', 'mt', 'kpi_aanmaken', pg_temp.p('{"cadans": "maand"}')), 'ongeldige_parameters:cadans', 'cadans is week, month or quarter');
create temp table r as select tests.roep(:'org', 'mt', 'kpi_aanmaken', pg_temp.p()) as r;
select is((select r #>> '{resultaat,kpi,lager_is_beter}' from r), 'false', 'lager_is_beter defaults to nee');
select is((select r #> '{resultaat,kpi,kwartaaldoel}' from r), 'null', 'the quarter target is set later in the app');
select is((select r #> '{voorstel}' from r) ?& array['naam', 'eenheid', 'eigenaar', 'meetsoort', 'cadans', 'lager_is_beter'], true,
  'the proposal shows every definition field');
select is(tests.roep(:'org', 'eigenaar', 'kpi_aanmaken', pg_temp.p('{"lager_is_beter": "ja", "meetsoort": "stand"}')) #>> '{resultaat,kpi,lager_is_beter}',
  'true', 'lager_is_beter ja');
select is(tests.fout(:'org', 'lid', 'kpi_aanmaken', pg_temp.p()), '42501', 'a member may not create KPIs (policy)');
select is(tests.fout(:'org', 'coach', 'kpi_aanmaken', pg_temp.p()), '42501', 'nor may a coach');

select * from finish();
rollback;
