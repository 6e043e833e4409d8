-- dagprioriteiten_zetten: at most three, only for oneself, an omitted one stays; the proposal
-- shows what stands now and what it becomes, for the slots given.
begin;
select plan(7);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Dag BV') as org \gset
select tests.lid(:'org', 'mt') as mt \gset

select is(tests.fout(:'org', 'mt', 'dagprioriteiten_zetten', '{}'), 'ongeldige_parameters:prioriteit_1', 'at least one priority');
create temp table r1 as select tests.roep(:'org', 'mt', 'dagprioriteiten_zetten', '{"prioriteit_1": "Offerte", "prioriteit_2": "Bellen"}') as r;
select is((select r #> '{resultaat,dagprioriteiten}' from r1), '{"datum": "2026-05-14", "prioriteiten": ["Offerte", "Bellen", null]}',
  'empty datum is today');
create temp table r2 as select tests.roep(:'org', 'mt', 'dagprioriteiten_zetten', '{"prioriteit_2": "Mailen", "prioriteit_3": "Plannen"}') as r;
select is((select r #> '{resultaat,dagprioriteiten,prioriteiten}' from r2), '["Offerte", "Mailen", "Plannen"]', 'a priority not given stays');
select is((select r #> '{voorstel,prioriteit_2}' from r2), '{"nu": "Bellen", "wordt": "Mailen"}', 'the proposal shows now and after');
select ok((select not (r -> 'voorstel' ? 'prioriteit_1') from r2), 'a slot not given is not in the proposal (another may fill it meanwhile)');
select is((select count(*)::int from app.dagprioriteiten where org_id = :'org' and user_id = :'mt'), 1, 'only for the caller, one row a day');
select is(tests.fout(:'org', 'coach', 'dagprioriteiten_zetten', '{"prioriteit_1": "x"}'), '42501', 'a coach may not (policy)');

select * from finish();
rollback;
