-- api.aanroep: the caller cannot be forged, the three conditions in the interface's order,
-- the call log (refused calls too), and the two-step rule, all in SQL.
begin;
select plan(79);

select tests.wereld('Alfa BV') as alfa \gset
select tests.wereld('Beta BV') as beta \gset
-- The fixture key of each world hashes its name (tests.wereld).
select sha256(convert_to('Alfa BV', 'UTF8')) as sleutel \gset
select tests.lid(:'alfa', 'eigenaar') as eigenaar \gset
select tests.lid(:'alfa', 'lid') as lid \gset

create function pg_temp.roep(_op text, _p jsonb, _sleutel bytea default null, _voorfout jsonb default null) returns jsonb
language plpgsql as $$
declare r jsonb;
begin
  set local role koers_door;
  r := api.aanroep('rest', _sleutel, _op, _p, _voorfout);
  reset role;
  return r;
end
$$;

-- The caller cannot be forged ----------------------------------------------------------------
set local role koers_door;
select is(app_hidden.huidige_org(), null, 'without a call there is no caller');
select is((select count(*) from app.lidmaatschappen), 0::bigint, 'and no member is visible');
select throws_ok($$ select app_hidden.handelen_namens(null, null) $$, '42501', null, 'the door cannot impersonate a member');
select throws_ok($$ select * from app_private.aanroepen $$, '42501', null, 'the door cannot read the call log');
select throws_ok($$ select * from app_private.api_sleutels $$, '42501', null, 'the door cannot read the keys');
reset role;
-- A call-log row of another transaction (xid 1, from the fixture) does not count as the caller.
select set_config('koers.aanroep', :'alfa' || '/' ||
  (select id from app_private.aanroepen where org_id = :'alfa' and xid = '1'::xid8), true);
set local role koers_door;
select is(app_hidden.huidige_org(), null, 'a setting pointing at another transaction''s call impersonates nobody');
select is((select o.org from app_hidden.mijn_org() o), null, 'nor for the policies'' inlined reader (mijn_org)');
select is((select count(*) from app.lidmaatschappen), 0::bigint, 'and shows nothing');
reset role;
select set_config('koers.aanroep', '', true);

-- Security-definer helpers trust no argument from the door.
select id as beta_log from app_private.aanroepen where org_id = :'beta' and xid = '1'::xid8 \gset
select app_hidden.handelen_namens(:'alfa', :'lid');
set local role koers_door;
select throws_ok(format($$ select app_hidden.gebeurtenis(%L, 'taak.klaar', null, '{}') $$, :'beta'), '42501', null,
  'the door cannot forge an event');
-- aanroep_einde writes a call's row from the caller row of this backend's call: handed
-- another organisation's row, or asked again for its own call (logged by handelen_namens),
-- it writes nothing.
select app_hidden.aanroep_einde(:'beta_log'::uuid, 999, 'vervalst', null, now());
select app_hidden.aanroep_einde((app_hidden.beller()).aanroep_id, 999, 'vervalst', null, now());
select throws_ok($$ insert into app_hidden.bellers (pid, xid, wijzer, toegelaten, aanroep_id, org, door, operatie, parameters)
                    values (pg_backend_pid(), pg_current_xact_id(), 'x', true, gen_random_uuid(), null, 'rest', 'team', '{}') $$,
  '42501', null, 'the door cannot write a caller row');
reset role;
select is((select count(*)::int from app_private.aanroepen where status = 999 or fout_code = 'vervalst'), 0,
  'the door cannot rewrite the call log');
set local role koers_door;
select is(app_hidden.persoon(:'beta', (select user_id from app.lidmaatschappen where org_id = :'beta' limit 1)),
  null, 'people of another organisation stay unnamed, even asked directly');
select is(app_hidden.taak_tags(:'beta', (select id from app.taken where org_id = :'beta' limit 1)), '[]',
  'as do its task tags');
reset role;
select set_config('koers.aanroep', '', true);
set local role koers_door;
select throws_ok($$ select app_hidden.bevestigcode_maken('{}', '{}') $$, '42501', null, 'no confirmation code outside a call');
reset role;

-- Refusals, in order ----------------------------------------------------------------------
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa')) -> 'status', '401', 'no key: 401');
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa')) #>> '{body,fout,code}', 'geen_sleutel', 'no key: geen_sleutel');
select is((select fout_code from app_private.aanroepen_zonder_org order by tijdstip desc limit 1), 'geen_sleutel',
  'a call without a key is logged without organisation');
select is(pg_temp.roep('teams', jsonb_build_object('org_id', :'alfa'), :'sleutel') #>> '{body,fout,code}', 'onbekend_endpoint',
  'an unknown operation: onbekend_endpoint, even with a good key');
select is(pg_temp.roep('organisaties', '{}', :'sleutel') #>> '{body,fout,code}', 'onbekend_endpoint',
  'organisaties exists only on the AI connection');
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'beta'), :'sleutel') #>> '{body,fout,code}', 'verkeerde_organisatie',
  'another organisation''s id: verkeerde_organisatie');
update app.koppelingen set aan = false where org_id = :'alfa' and door = 'rest';
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'beta'), :'sleutel') #>> '{body,fout,code}', 'verkeerde_organisatie',
  'verkeerde_organisatie comes before koppeling_uit');
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa'), :'sleutel') #>> '{body,fout,code}', 'koppeling_uit',
  'door off: koppeling_uit');
update app.koppelingen set aan = true where org_id = :'alfa' and door = 'rest';
update app.secties set vrijgegeven = false where org_id = :'alfa' and sectie = 'team';
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa'), :'sleutel') #>> '{body,fout,code}', 'onderdeel_uit',
  'section not released: onderdeel_uit');
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa'), :'sleutel', '{"code":"ongeldige_parameters","bericht":"x","parameter":"y"}')
  #>> '{body,fout,code}', 'onderdeel_uit', 'onderdeel_uit comes before a parameter error');
update app.secties set vrijgegeven = true where org_id = :'alfa' and sectie = 'team';
update app.koppelingen set alleen_lezen = true where org_id = :'alfa' and door = 'rest';
select is(pg_temp.roep('project_aanmaken', jsonb_build_object('org_id', :'alfa', 'titel', 'X', 'eigenaar_user_id', :'lid'), :'sleutel')
  #>> '{body,fout,code}', 'alleen_lezen', 'a write on a read-only door: alleen_lezen');
select is(pg_temp.roep('team', jsonb_build_object('org_id', :'alfa'), :'sleutel') -> 'status', '200', 'a read on a read-only door works');
update app.koppelingen set alleen_lezen = false where org_id = :'alfa' and door = 'rest';
select is(pg_temp.roep('team', '{}', :'sleutel') #> '{body,fout}',
  '{"code": "ongeldige_parameters", "bericht": "org_id is verplicht.", "parameter": "org_id"}', 'org_id is required');
select is((select array[status::text, fout_code, operatie] from app_private.aanroepen
           where org_id = :'alfa' and operatie <> 'test' order by tijdstip desc limit 1),
  array['400', 'ongeldige_parameters', 'team'], 'refused calls are in the organisation''s log with status and code');

-- Two steps ---------------------------------------------------------------------------------
create temp table stap (n int, r jsonb);
grant all on stap to koers_door;
insert into stap select 1, pg_temp.roep('project_aanmaken',
  jsonb_build_object('org_id', :'alfa', 'titel', 'Nieuw magazijn', 'eigenaar_user_id', :'lid'), :'sleutel');
select is((select r -> 'status' from stap where n = 1), '200', 'the first call answers with a proposal');
select is((select count(*) from app.projecten where titel = 'Nieuw magazijn'), 0::bigint, 'the first call changes nothing');
select is((select count(*) from app.audit_log where tabel = 'projecten' and rij ->> 'titel' = 'Nieuw magazijn'), 0::bigint,
  'not even the audit log');
insert into stap select 2, pg_temp.roep('project_aanmaken',
  jsonb_build_object('org_id', :'alfa', 'titel', 'Nieuw magazijn', 'eigenaar_user_id', :'lid',
                     'bevestigcode', (select r #>> '{body,bevestigcode}' from stap where n = 1)), :'sleutel');
select is((select r #> '{body,uitgevoerd}' from stap where n = 2), 'true', 'the second call writes');
select is((select count(*) from app.projecten where titel = 'Nieuw magazijn'), 1::bigint, 'exactly once');
insert into stap select 3, pg_temp.roep('project_aanmaken',
  jsonb_build_object('org_id', :'alfa', 'titel', 'Nieuw magazijn', 'eigenaar_user_id', :'lid',
                     'bevestigcode', (select r #>> '{body,bevestigcode}' from stap where n = 1)), :'sleutel');
select is((select r -> 'body' from stap where n = 3), (select r -> 'body' from stap where n = 2),
  'confirming again returns the first result');
select is((select count(*) from app.projecten where titel = 'Nieuw magazijn'), 1::bigint, 'and writes nothing');
select is((select count(*) from app.audit_log where tabel = 'projecten' and rij ->> 'titel' = 'Nieuw magazijn'
           and aanroep_id is not null and user_id = :'eigenaar'), 1::bigint,
  'the audit log ties the write to the call and the caller');

-- Nothing is trusted because of a role's name: another role, a reporting role for instance,
-- gets no organisation's data from the helpers without a caller in that organisation.
select user_id as beta_lid from app.lidmaatschappen where org_id = :'beta' order by aangemaakt_op limit 1 \gset
create role koers_rapportage_test nologin;
grant usage on schema app_hidden to koers_rapportage_test;
grant execute on all functions in schema app_hidden to koers_rapportage_test;
set local role koers_rapportage_test;
select is(app_hidden.persoon(:'beta', :'beta_lid'), null,
  'a reporting role reads no organisation''s people');
select is(app_hidden.team_veld(:'beta', null), '{}', 'nor its teams');
reset role;
select is(app_hidden.persoon(:'beta', :'beta_lid'), null,
  'the administrative role neither, without a caller in that organisation');
select app_hidden.handelen_namens(:'beta', null);
select isnt(app_hidden.persoon(:'beta', :'beta_lid'), null,
  'the app acting in that organisation does');
select set_config('koers.aanroep', '', true);

-- Secrets never reach a log: a key sent as a parameter, in an address, or another
-- organisation's key, is masked; raw input is cut short.
select is((pg_temp.roep('team', jsonb_build_object('org_id', :'alfa', 'zoek', 'koers_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345678901'),
  :'sleutel') #>> '{body,fout,parameter}'), 'zoek', 'a key sent in an unknown parameter is refused by name');
select is((select parameters::text ~ 'AbCdEfGh' from app_private.aanroepen where org_id = :'alfa' and operatie = 'team'
           order by tijdstip desc limit 1), false, 'and the key is not in the organisation''s log');
select pg_temp.roep('GET /api/v1/koers_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345678901', '{}', :'sleutel',
  '{"code": "onbekend_endpoint", "bericht": "x"}');
select is((select operatie from app_private.aanroepen where org_id = :'alfa' order by tijdstip desc limit 1),
  'GET /api/v1/koers_live_[verborgen]', 'nor a key in an unknown address');
select pg_temp.roep('team', jsonb_build_object('org_id', :'alfa', 'sleutel', 'Bearer koers_live_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ123456'));
select is((select parameters::text ~ 'ZZZZ' from app_private.aanroepen_zonder_org order by tijdstip desc limit 1), false,
  'nor in the log of calls without an organisation');
select pg_temp.roep('team', jsonb_build_object('org_id', :'alfa', 'veel', repeat('x', 100000)), :'sleutel',
  '{"code": "ongeldige_parameters", "bericht": "x", "parameter": "veel"}');
select cmp_ok((select length(parameters::text) from app_private.aanroepen where org_id = :'alfa' order by tijdstip desc limit 1),
  '<=', 2100, 'raw input is stored cut short, at most about 2 kB per call');

-- A refused call is logged, but is nobody's caller, even with the setting pointed at its row;
-- the door cannot read the caller rows at all.
update app_private.api_sleutels set ingetrokken_op = now() where hash = :'sleutel';
set local role koers_door;
select set_config('koers.aanroep', :'alfa' || '/' || b.aanroep_id, true)
from app_hidden.aanroep_begin('rest', :'sleutel'::bytea, 'team', jsonb_build_object('org_id', :'alfa'), null, null, null, now()) b;
select is(app_hidden.huidige_org(), null, 'a refused call is nobody''s caller, whatever the setting says');
select is((select o.org from app_hidden.mijn_org() o), null, 'also for the policies'' inlined reader (mijn_org)');
select throws_ok($$ select * from app_hidden.bellers $$, '42501', null, 'the door cannot read the caller rows');
select throws_ok($$ select b.parameters, b.status, b.fout_code from app_hidden.bellers b $$, '42501', null,
  'nor what a call''s log row will say of its input and outcome');
reset role;
-- The policies read the current caller themselves (app_hidden.beller_nu, through mijn_org, inlined):
-- another backend's row, even admitted and named by the setting, is nobody's caller here.
insert into app_hidden.bellers (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, org, door, operatie, parameters)
values (-1, app_hidden.beller_vak(), pg_current_xact_id(), now(), 'elders', true, gen_random_uuid(), :'beta', 'rest', 'team', '{}');
select set_config('koers.aanroep', 'elders', true);
set local role koers_door;
select is((select count(*)::int from app_hidden.beller_nu), 0, 'another backend''s caller row is nobody''s caller here');
select is((select o.org from app_hidden.mijn_org() o), null, 'and the policies see no organisation');
reset role;
delete from app_hidden.bellers where pid = -1;
select set_config('koers.aanroep', '', true);
update app_private.api_sleutels set ingetrokken_op = null where hash = :'sleutel';
select set_config('koers.aanroep', '', true);

-- The rate limit counts in the same statement: per key, and per address without a valid key.
select set_config('koers.limiet', '2', true), set_config('koers.limiet_adres', '1', true),
       set_config('koers.limiet_venster', '1000000000', true);
select is(array[pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #>> '{tempo,r}', pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #>> '{tempo,r}'],
  array['1', '0'], 'each call says what is left of the limit');
select is(pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #> '{status}', '429', 'over the limit: 429');
select is((select array[status::text, fout_code] from app_private.aanroepen where org_id = :'alfa' order by tijdstip desc limit 1),
  array['429', 'te_veel_verzoeken'], 'logged like every refusal');
select is((pg_temp.roep('wie_ben_ik', '{}') -> 'tempo') - 't',
  '{"q": 1, "r": 0, "w": 1000000000, "beleid": "adres"}', 'a call without a key counts against its address');
select is(pg_temp.roep('wie_ben_ik', '{}') #>> '{body,fout,code}', 'te_veel_verzoeken', 'and is refused past it');
select set_config('koers.limiet', '', true), set_config('koers.limiet_adres', '', true);
-- The start of a call keeps one plan per statement for the connection: without the setting the
-- count could be planned anew at every call, as the statistics of the moment priced it (see
-- app_hidden.aanroep_begin).
select is((select p.proconfig from pg_proc p where p.oid = 'app_hidden.aanroep_begin'::regproc),
  array['search_path=""', 'plan_cache_mode=force_generic_plan'], 'the start of a call plans each statement once per connection');

-- The caller rows: a backend's row per tenth of a second (app_hidden.beller_vak). The call that
-- makes one removes the one before it, which the session setting koers.vorige_beller names;
-- without a setting that is a number (the doors can set it), every earlier row of the backend,
-- also one another backend with the same pid left.
delete from app_hidden.bellers b where b.pid = pg_backend_pid();
insert into app_hidden.bellers (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, door, operatie, parameters)
values (pg_backend_pid(), app_hidden.beller_vak() - interval '1 second', pg_current_xact_id(), now() - interval '1 second', '', false,
        gen_random_uuid(), 'rest', '', '{}'),
       (pg_backend_pid(), app_hidden.beller_vak() - interval '2 seconds', pg_current_xact_id(), now() - interval '2 seconds', '', false,
        gen_random_uuid(), 'rest', '', '{}');
select set_config('koers.vorige_beller', (date_part('epoch', app_hidden.beller_vak() - interval '1 second') * 1000000)::bigint::text, false);
select is(pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #>> '{status}', '200', 'a call in a new tenth of a second');
select is((select array_agg(app_hidden.beller_vak() - b.vak order by b.vak) from app_hidden.bellers b where b.pid = pg_backend_pid()),
  array[interval '2 seconds', interval '0'], 'makes its row and removes the one the setting names, not an older one');
select is(current_setting('koers.vorige_beller'), app_hidden.beller_vak_tekst(), 'and names its own for the next');
select is(pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #>> '{body,organisatie,org_id}', :'alfa', 'a call in the same tenth');
select is((select count(*)::int from app_hidden.bellers b where b.pid = pg_backend_pid()), 2, 'updates that row');
delete from app_hidden.bellers b where b.pid = pg_backend_pid() and b.vak = app_hidden.beller_vak();
select set_config('koers.vorige_beller', 'geen getal', false);
select is(pg_temp.roep('wie_ben_ik', '{}', :'sleutel') #>> '{status}', '200', 'a call with a setting that is no number');
select is((select array_agg(app_hidden.beller_vak() - b.vak) from app_hidden.bellers b where b.pid = pg_backend_pid()),
  array[interval '0'], 'removes every earlier row of its backend');

-- Log rows' ids are time-ordered (app_hidden.tijd_uuid): a UUID of version 7 whose first 48 bits
-- are the Unix time in milliseconds, so a new row lands on the last page of its organisation's
-- part of the primary key.
create function pg_temp.ms(_u uuid) returns bigint language sql immutable as $$
  select ('x' || lpad(replace(left(_u::text, 13), '-', ''), 16, '0'))::bit(64)::bigint
$$;
select ok((select every(app_hidden.tijd_uuid()::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')
           from generate_series(1, 1000)), 'a time-ordered id is a UUID of version 7 with the RFC variant');
select ok((select count(distinct app_hidden.tijd_uuid()) = 1000 from generate_series(1, 1000)),
  'ids made in the same millisecond differ');
select ok(abs(pg_temp.ms(app_hidden.tijd_uuid()) - floor(extract(epoch from clock_timestamp()) * 1000)::bigint) < 1000,
  'its first 48 bits are the time in milliseconds');
select app_hidden.tijd_uuid() as earlier \gset
select pg_sleep(0.002);
select ok(app_hidden.tijd_uuid() > :'earlier'::uuid, 'an id made later sorts after one made earlier');
select is((select array_agg(pg_get_expr(d.adbin, d.adrelid) order by d.adrelid::regclass::text)
           from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
           where a.attname = 'id' and d.adrelid in ('app_private.aanroepen'::regclass, 'app_private.aanroepen_zonder_org'::regclass,
                                                     'app.gebeurtenissen'::regclass, 'app_private.webhook_berichten'::regclass)),
  array_fill('app_hidden.tijd_uuid()'::text, array[4]),
  'the call logs, events and webhook messages get such ids unless a statement names one');
select ok((select every(a.id::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-7') from app_private.aanroepen a
           where a.xid = pg_current_xact_id()) and exists (select 1 from app_private.aanroepen a where a.xid = pg_current_xact_id()),
  'the log rows of this test''s calls have such ids');

-- Retention trims the logs by age, in batches.
select set_config('koers.nu', '2027-06-01T00:00:00Z', true);
select is(beheer.bewaartermijnen_toepassen(400, 30, 400, 100000) ->> 'aanroepen', '0', 'nothing in the organisation''s log is 400 days old yet');
select cmp_ok((beheer.bewaartermijnen_toepassen(400, 30, 400, 100000) ->> 'aanroepen_zonder_org')::int, '=', 0,
  'the calls without organisation were trimmed by the first run');
select is((select count(*)::int from app_private.aanroepen_zonder_org where tijdstip < app_hidden.nu() - interval '30 days'), 0,
  'no call without organisation older than 30 days is left');
select set_config('koers.nu', '2028-06-01T00:00:00Z', true);
select is(beheer.bewaartermijnen_toepassen(400, 30, 400, 1) ->> 'aanroepen', '1', 'a batch removes at most its size');
select ok((select count(*) from app_private.aanroepen) > 0 and (select count(*) from app.audit_log) > 0, 'so some rows are left');
select ok((select every(((beheer.bewaartermijnen_toepassen(400, 30, 400, 1000)) ->> 'aanroepen')::int >= 0) from generate_series(1, 20)),
  'repeated runs go on');
select is((select count(*)::int from app_private.aanroepen) + (select count(*)::int from app.audit_log), 0,
  'until everything older than 400 days is gone');

-- and removes the caller rows of backends that have ended (no such pid runs: pids stay below
-- 2^22), not those of backends that run.
insert into app_hidden.bellers (pid, vak, xid, sinds, wijzer, toegelaten, aanroep_id, door, operatie, parameters)
values (2147483000, app_hidden.beller_vak(), pg_current_xact_id(), now(), '', true, gen_random_uuid(), 'rest', 'taken',
        '{"omschrijving": "van een beeindigde verbinding"}');
select cmp_ok((beheer.bewaartermijnen_toepassen(400, 30, 400, 1000) ->> 'bellers')::int, '>=', 1, 'counted as removed');
select is((select array[count(*) filter (where b.pid = 2147483000), count(*) filter (where b.pid = pg_backend_pid())]::int[]
           from app_hidden.bellers b), array[0, 1], 'the caller row of the ended backend is gone, that of the running one stays');

select * from finish();
rollback;
