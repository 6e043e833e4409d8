-- api.project_aanmaken: validation naming the parameter, and the row it writes, under RLS.
begin;
select plan(10);

set local koers.nu = '2026-05-13T23:30:00Z';
select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
select tests.lid(:'alfa', 'lid') as lid \gset
select tests.lid(:'beta', 'lid') as beta_lid \gset
select is(tests.fout(:'alfa', 'lid', 'project_aanmaken', jsonb_build_object('eigenaar_user_id', :'lid')),
  'ongeldige_parameters:titel', 'titel is required');
select is(tests.fout(:'alfa', 'lid', 'project_aanmaken', '{"titel": "X"}'), 'ongeldige_parameters:eigenaar_user_id', 'eigenaar is required');
select app_hidden.handelen_namens(:'alfa', :'lid');
set local role koers_door;
select throws_ok(format($$ select api.project_aanmaken('{"titel": "X", "eigenaar_user_id": "%s"}') $$, :'beta_lid'),
  'KOERS', format('%s is geen lid van deze organisatie (gebruik een user_id uit team).', :'beta_lid'),
  'an owner from another organisation is refused, as if it did not exist');
select throws_ok(format($$ select api.project_aanmaken('{"titel": "X", "eigenaar_user_id": "%s", "deadline": "2026-05-13"}') $$, :'lid'),
  'KOERS', null, 'a deadline before today (Amsterdam) is refused');
select throws_ok(format($$ select api.project_aanmaken('{"titel": "X", "eigenaar_user_id": "%s", "deadline": "2026-13-01"}') $$, :'lid'),
  'KOERS', 'deadline is geen bestaande datum: 2026-13-01.', 'a date that does not exist is refused');

create temp table r as select api.project_aanmaken(format('{"titel": "Webshop", "eigenaar_user_id": "%s", "deadline": "2026-05-14"}', :'lid')::jsonb) as r;
select is((select r #>> '{resultaat,project,looptijd,van}' from r), '2026-05-14', 'a project starts today');
select is((select r #> '{voorstel,titel}' from r), '{"nu": null, "wordt": "Webshop"}', 'the proposal shows what it becomes');
select is((select count(*) from app.projecten where titel = 'Webshop'), 1::bigint, 'the row is written');
reset role;
select is((select besloten from app.projecten where titel = 'Webshop'), false, 'visible to the whole team when created');
select app_hidden.handelen_namens(:'alfa', tests.lid(:'alfa', 'coach'));
set local role koers_door;
select throws_ok(format($$ select api.project_aanmaken('{"titel": "Coach", "eigenaar_user_id": "%s"}') $$, :'lid'),
  '42501', null, 'a coach cannot create a project, even calling the function directly (policy)');
reset role;

select * from finish();
rollback;
