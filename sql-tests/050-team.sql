-- api.team as the door sees it.
begin;
select plan(7);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
select app_hidden.handelen_namens(:'alfa', tests.lid(:'alfa', 'coach'));
set local role koers_door;
create temp table t as select api.team('{}') as r;
reset role;

select is(jsonb_array_length((select r -> 'leden' from t)), 5, 'five members, all of their own organisation');
select ok((select bool_and(x ->> 'naam' like '% Alfa BV') from t, jsonb_array_elements(r -> 'leden') x), 'none of Beta');
select is((select r -> 'teams' from t),
  jsonb_build_array(jsonb_build_object('id', (select id from app.teams where org_id = :'alfa'), 'naam', 'Verkoop',
    'leider', jsonb_build_object('user_id', tests.lid(:'alfa', 'eigenaar'), 'naam', 'Eigenaar Alfa BV'))),
  'teams with their leader');
select is((select x -> 'team' ->> 'naam' from t, jsonb_array_elements(r -> 'leden') x where x ->> 'rol' = 'lid'), 'Verkoop',
  'a member''s team');
select is((select r -> 'open_rollen' -> 0 ->> 'naam' from t), 'Binnendienst', 'an open seat is an open role');
select is((select r #> '{processen,0,rollen}' from t) @> '[{"naam": "Binnendienst", "wie": null}]', true,
  'and appears in its process with wie null');
select is((select array_agg(x ->> 'naam' order by x ->> 'naam') from t, jsonb_array_elements(r -> 'zonder_rol') x),
  array['Admin Alfa BV', 'Coach Alfa BV', 'Mt Alfa BV'], 'members who lead no process and sit on no role');

select * from finish();
rollback;
