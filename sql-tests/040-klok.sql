-- The test clock: one function reads "now", and koers.nu replaces it everywhere.
begin;
select plan(5);

select ok(app_hidden.nu() = now(), 'without a test clock, nu() is now()');
set local koers.nu = '2026-05-13T23:30:00Z';
select is(app_hidden.nu(), '2026-05-13T23:30:00Z'::timestamptz, 'koers.nu freezes now');
select tests.wereld('Klok BV') as org \gset
select is(app_hidden.vandaag(:'org'), date '2026-05-14', 'today is counted in the organisation''s time zone (Amsterdam)');
update app.organisaties set tijdzone = 'America/New_York' where org_id = :'org';
select is(app_hidden.vandaag(:'org'), date '2026-05-13', 'and follows a different time zone');
select is_empty($$ select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                   where n.nspname in ('api', 'app_hidden', 'beheer') and p.prosrc ~* '(\mnow\s*\(|\m(current_date|current_timestamp|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp)\M)'
                     and p.proname not in ('nu', 'aanroep', 'aanroep_einde',
                                           -- the caller row's transaction (db/030: beller_nu), not a time a
                                           -- test clock may replace: every transaction would be the same one
                                           'aanroep_begin', 'beller_zetten', 'beller_vak', 'tg__verborgen_vergeten',
                                           -- an id ordered as rows are written (db/020_helpers.sql), not a time
                                           'tijd_uuid') $$,
  'no function reads the clock but app_hidden.nu() (the call log measures real duration)');

select * from finish();
rollback;
