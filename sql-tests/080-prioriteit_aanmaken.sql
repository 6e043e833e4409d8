-- prioriteit_aanmaken: rules at their boundaries, the event it records, allowed and refused roles.
begin;
select plan(18);

set local koers.nu = '2026-05-14T10:00:00+02:00';
select tests.wereld('Prio BV') as org \gset
select tests.lid(:'org', 'lid') as lid \gset
create function pg_temp.p(_extra jsonb default '{}') returns jsonb language sql as $$
  select jsonb_build_object('titel', 'Tien nieuwe klanten', 'soort', 'rock',
    'eigenaar_user_id', tests.lid((select org_id from app.organisaties where naam = 'Prio BV'), 'lid')) || _extra
$$;

select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p() - 'titel'), 'ongeldige_parameters:titel', 'titel is required');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p() - 'soort'), 'ongeldige_parameters:soort', 'soort has no default');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"soort": "doel"}')), 'ongeldige_parameters:soort', 'soort is rock or okr');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p() - 'eigenaar_user_id'), 'ongeldige_parameters:eigenaar_user_id', 'an owner is required');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"kwartaal": "2026-Q2"}')), 'ongeldige_parameters:kwartaal', 'kwartaal is Q<n>-<yyyy>');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"kwartaal": "Q1-2026"}')), 'ongeldige_parameters:kwartaal', 'a past quarter is refused');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"deadline": "2026-07-01"}')), 'ongeldige_parameters:deadline', 'a deadline after the quarter is refused');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"deadline": "2026-05-13"}')), 'ongeldige_parameters:deadline', 'a deadline before today is refused');
select is(tests.fout(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"deadline": "2026-05-14"}')), '', 'a deadline of today is accepted');

create temp table r as select tests.roep(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p()) as r;
select is((select r #>> '{resultaat,prioriteit,kwartaal}' from r), 'Q2-2026', 'empty kwartaal is the running quarter');
select is((select r #>> '{resultaat,prioriteit,deadline}' from r), '2026-06-30', 'empty deadline is the end of the quarter');
select is((select r #> '{voorstel}' from r) ?& array['titel', 'soort', 'eigenaar', 'kwartaal'], true,
  'the proposal holds titel, soort, eigenaar and kwartaal');
select is((select r #>> '{resultaat,prioriteit,stand}' from r), 'geen taken', 'a new rock has no tasks yet');
select is((select gegevens #>> '{prioriteit,titel}' from app.gebeurtenissen
           where org_id = :'org' and soort = 'prioriteit.aangemaakt' and onderwerp_id = (select (r #>> '{resultaat,prioriteit,id}')::uuid from r)),
  'Tien nieuwe klanten', 'prioriteit.aangemaakt is recorded in the same transaction');
select is(tests.roep(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p('{"soort": "okr", "kwartaal": "Q3-2026"}')) #>> '{resultaat,prioriteit,stand}',
  'nog niet gestart', 'an OKR for next quarter has not started');

-- Advice: three to five per person per quarter.
select tests.roep(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p()) from generate_series(1, 3);
select is(tests.roep(:'org', 'lid', 'prioriteit_aanmaken', pg_temp.p()) #>> '{voorstel,advies}',
  'Lid Prio BV heeft hiermee 6 prioriteiten in Q2-2026; het advies is drie tot vijf per persoon per kwartaal.',
  'the sixth priority of a person in a quarter carries the advice');

select is(tests.fout(:'org', 'coach', 'prioriteit_aanmaken', pg_temp.p()), '42501', 'a coach may not (policy)');
update app.prioriteiten set afgerond_op = app_hidden.nu() where org_id = :'org' and titel = 'Omzet +10%';
select is((select count(*)::int from app.gebeurtenissen where org_id = :'org' and soort = 'prioriteit.afgerond'), 1,
  'completing a priority records prioriteit.afgerond');

select * from finish();
rollback;
